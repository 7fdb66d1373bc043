/** oidc-provider 8 ships no types (@types/oidc-provider is not installed); the test IdP uses a small part of it. */
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}

import { randomUUID } from 'node:crypto';
import { Schema, type InferSchemaType } from 'mongoose';
import { BUILT_IN_ROLES, DEFAULT_MEMBER_ROLE } from '../../roles/roles.ts';

/** Roles a connection may give new members: any built-in role but owner (ownership is given by an owner). */
export const SSO_DEFAULT_ROLES = BUILT_IN_ROLES.filter((r) => r !== 'owner');

export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/**
 * An organization's single sign-on connection (at most one per organization): OpenID Connect
 * or SAML 2.0, the role people signing in for the first time get, and whether password
 * sign-in is refused for members on the organization's verified domains (`require_sso`).
 *
 * OIDC: the issuer (discovered at each sign-in), the client id, and the client secret sealed
 * with secrets/secret-box.ts (never stored in clear, never answered). SAML: the IdP's metadata
 * as given (URL or pasted XML) and what was read from it: entity id, SSO URL, signing
 * certificates (public, stored as is).
 */
export const ssoConnectionSchema = new Schema({
  _id: { type: String, default: () => randomUUID() },
  org_id: { type: String, required: true, unique: true },
  protocol: { type: String, enum: SSO_PROTOCOLS, required: true },
  default_role: { type: String, enum: SSO_DEFAULT_ROLES, default: DEFAULT_MEMBER_ROLE },
  require_sso: { type: Boolean, default: false },
  /** SAML: accept IdP-initiated responses (no InResponseTo), with replay protection and a short max age. */
  allow_idp_initiated: { type: Boolean, default: false },
  oidc_issuer: { type: String, default: null },
  oidc_client_id: { type: String, default: null },
  /** Sealed (secret-box.ts, purpose `sso-oidc-client-secret`). */
  oidc_client_secret_sealed: { type: String, default: null },
  saml_metadata_url: { type: String, default: null },
  saml_metadata_xml: { type: String, default: null },
  saml_idp_entity_id: { type: String, default: null },
  saml_idp_sso_url: { type: String, default: null },
  saml_idp_certs: { type: [String], default: [] },
  created_at: { type: Date, required: true },
  updated_at: { type: Date, required: true },
}, { versionKey: false });

export type SsoConnection = InferSchemaType<typeof ssoConnectionSchema> & { _id: string };

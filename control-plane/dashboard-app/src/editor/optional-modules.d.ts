/** Vite's `import.meta.glob`, used to mount editor modules that may not be in this build. */
interface ImportMeta {
  glob<T = unknown>(pattern: string | string[], options?: { eager?: false; import?: string }): Record<string, () => Promise<T>>;
}

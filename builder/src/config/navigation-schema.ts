/**
 * The schema of `navigation` in `docs.json`. Two forms are accepted:
 *
 * - the array form: page paths and groups `{ "group", "pages" }`, nested freely;
 * - Mintlify's object form: `{ languages | versions | products | dropdowns | tabs | anchors |
 *   groups | pages, global }`, where every division (`{ "tab": "API", … }`) holds the same keys
 *   again, nested freely. Unlike Mintlify, one level may mix several kinds of children.
 *
 * Both parse to one tree of {@link NavigationEntry}: pages, groups and divisions, children in the
 * order languages, versions, products, dropdowns, tabs, anchors, groups, pages. Divisions,
 * groups and global links reject unknown keys, listing the accepted ones.
 */
import { z } from 'zod';
import { expected } from './error-map.ts';
import { readDimensions } from '../nav/dimensions.ts';
import { text } from './fields.ts';
import { groupsKey, publicKey } from '../access/access-keys.ts';
import { divisionKinds, type DivisionKind, type Navigation, type NavigationDivision, type NavigationEntry, type NavigationGroup } from './navigation-types.ts';

const pagePath = z
  .string()
  // Or an API operation of `api.openapi`, Mintlify's way: "GET /users" (optionally after the document's path).
  .regex(/^(?:(?:\S+ )?(?:GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE) \/\S*|(?:\.?\/)*(?!\/)(?!.*\.mdx?$)(?!(.*\/)?\.\.(\/|$))[^\s]+)$/, {
    error: expected('a page path relative to contentRoot, without extension, such as guides/install, or an API operation such as GET /users'),
  })
  // Mintlify reads `/guides/install` and `./guides/install` as `guides/install`.
  .transform((ref) => (/^(?:\S+ )?[A-Z]+ \//.test(ref) ? ref : ref.replace(/^(?:\.?\/)+/, '')))
  .describe('A page: its path relative to contentRoot without extension, e.g. "guides/install"');

/** Mintlify writes icons as a name or `{ name, style, library }`. */
const icon = z
  .union([text(), z.looseObject({ name: text() })], { error: expected('an icon name or { "name" }') })
  .transform((value) => (typeof value === 'string' ? value : value.name))
  .optional();

const plural = { language: 'languages', version: 'versions', product: 'products', dropdown: 'dropdowns', tab: 'tabs', item: 'menu', anchor: 'anchors' } as const;

/** Mintlify's `directory` (listings of a group root's children), accepted on every level; not rendered yet (warning). */
const directory = z.enum(['none', 'accordion', 'card']).optional().describe('Accepted for Mintlify files; directory listings are not rendered yet (warning)');
/** Keys Mintlify reserves on every level and rejects when used; accepted here, with a warning when set. */
const unsupported = {
  graphql: z.unknown().optional().describe('Accepted for Mintlify files; ignored (warning)'),
  sdk: z.unknown().optional().describe('Accepted for Mintlify files; ignored (warning)'),
};
const searchable = z.boolean().optional().describe('false leaves its pages out of search; true keeps the pages of a hidden tab or group searchable');

const navigationGroup = z.strictObject({
  group: text().describe('Sidebar group title'),
  get pages(): z.ZodOptional<z.ZodArray<z.ZodType<NavigationEntry, unknown>>> {
    return z.array(navigationEntry).optional();
  },
  icon,
  expanded: z.boolean().optional().describe('Open when the page loads'),
  isDefaultOpen: z.boolean().optional().describe('Alias of expanded (expanded wins)'),
  root: pagePath.optional().describe('Page the group title links to'),
  tag: text().optional().describe('A short label beside the title, e.g. NEW'),
  hidden: z.boolean().optional(),
  boost: z.number().nonnegative().optional().describe('Search ranking multiplier of the group\'s pages, e.g. 3; below 1 ranks them lower. A nested group\'s own boost wins'),
  searchable,
  directory,
  public: publicKey.optional().describe('Its pages are readable without signing in when the site has reader authentication (a page\'s own frontmatter wins)'),
  groups: groupsKey.optional().describe('Reader groups that may read its pages (reader authentication); a page\'s own frontmatter wins'),
  openapi: z.unknown().optional().describe('With empty pages: every API reference page of api.openapi, grouped by tag'),
  asyncapi: z.unknown().optional().describe('With empty pages: a page per channel of that AsyncAPI document'),
  ...unsupported,
  // Mintlify's way: a group with `openapi` and no pages holds the whole API reference. Without
  // either it is only a title (Mintlify accepts it; the build warns, see mintlify-keys.ts).
}).refine((g) => !(g.public === true && g.groups), { error: 'Unexpected `public: true` together with `groups`; a group is either public or for groups' })
  .transform(({ public: isPublic, groups, openapi, asyncapi, pages, isDefaultOpen, expanded, directory: _d, graphql: _g, sdk: _s, ...rest }): NavigationGroup => dropUndefined({
    ...rest, expanded: expanded ?? isDefaultOpen, pages: pages ?? [], ...(openapi !== undefined ? { openapi: openapiSource(openapi) } : {}),
    ...(asyncapi !== undefined ? { asyncapi: openapiSource(asyncapi) } : {}),
    ...(groups || isPublic !== undefined ? { access: dropUndefined({ groups: groups && [...new Set(groups)].sort(), public: isPublic }) } : {}),
  }));

const navigationEntry: z.ZodType<NavigationEntry, unknown> = z
  .union([pagePath, navigationGroup], { error: expected('a page path or a group { "group", "pages" }') })
  .meta({ id: 'navigationEntry' });

/** The child keys every level of the object form accepts. */
const childKeys = {
  get languages() { return z.array(division('language')).optional(); },
  get versions() { return z.array(division('version')).optional(); },
  get products() { return z.array(division('product')).optional(); },
  get dropdowns() { return z.array(division('dropdown')).optional(); },
  get tabs() { return z.array(division('tab')).optional(); },
  get menu() { return z.array(division('item')).optional(); },
  get anchors() { return z.array(division('anchor')).optional(); },
  get groups() { return z.array(navigationGroup).optional(); },
  get pages() { return z.array(navigationEntry).optional(); },
};

/** `shape` with the child keys added as getters: spreading them would build the recursion eagerly. */
function withChildren<T extends object>(shape: T): T & typeof childKeys {
  return Object.defineProperties(shape, Object.getOwnPropertyDescriptors(childKeys)) as T & typeof childKeys;
}

type Children = { [K in keyof typeof childKeys]?: NavigationEntry[] };

const childOrder = [...divisionKinds.map((kind) => plural[kind]), 'groups', 'pages'] as const;

function childrenOf(value: Children): { items: NavigationEntry[]; paths: (string | number)[][] } {
  const items: NavigationEntry[] = [];
  const paths: (string | number)[][] = [];
  for (const key of childOrder) (value[key] ?? []).forEach((item, i) => { items.push(item); paths.push([key, i]); });
  return { items, paths };
}

/** The document an `openapi` (or `asyncapi`) key names: a path or URL, Mintlify's `{ source }`, the first of a list; `''` otherwise. */
function openapiSource(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  if (typeof first === 'string') return first;
  return first && typeof first === 'object' && typeof (first as { source?: unknown }).source === 'string' ? (first as { source: string }).source : '';
}

/** The first document named by an `openapi` key anywhere in the navigation, in reading order. */
export function navigationOpenapi(items: readonly NavigationEntry[]): string | undefined {
  for (const item of items) {
    if (typeof item === 'string') continue;
    if (item.openapi) return item.openapi;
    const found = navigationOpenapi('division' in item ? item.items : item.pages);
    if (found) return found;
  }
  return undefined;
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const divisions = new Map<DivisionKind, z.ZodType<NavigationDivision, unknown>>();

/** The schema of one division kind (memoised: the recursive getters ask for it at every level). */
function division(kind: DivisionKind): z.ZodType<NavigationDivision, unknown> {
  let schema = divisions.get(kind);
  if (schema) return schema;
  const name = kind === 'language'
    ? z.string().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, { error: expected('a language code such as en, fr or pt-BR') })
    : text();
  schema = z
    .strictObject(withChildren({
      [kind]: name,
      icon,
      href: text().optional().describe('A link instead of (or beside) pages: shown as a link to this address'),
      default: z.boolean().optional().describe('The division a visitor starts in'),
      tag: text().optional(),
      hidden: z.boolean().optional(),
      description: text().optional(),
      ...(kind === 'language' || kind === 'version'
        ? { prefix: z.string().regex(/^[a-zA-Z0-9][a-zA-Z0-9._-]*$/, { error: expected('one folder name such as v2 or fr (letters, digits, ".", "_", "-")') }).optional().describe('Folder and URL segment of this division\'s pages; default its name') }
        : {}),
      color: z.unknown().optional().describe('Accepted for Mintlify files; ignored'),
      public: z.boolean().optional().describe('Accepted for Mintlify files; ignored'),
      openapi: z.unknown().optional().describe('Without pages: every API reference page of api.openapi, grouped by tag'),
      asyncapi: z.unknown().optional().describe('Without pages: a page per channel of that AsyncAPI document'),
      searchable,
      directory,
      iconType: text().optional().describe('Accepted for Mintlify files (Font Awesome style); ignored'),
      ...(kind === 'tab' ? { align: z.enum(['start', 'end']).optional().describe('Accepted for Mintlify files; tabs are laid out in order (warning)') } : {}),
      ...(kind === 'product' ? { name: text().optional().describe('Display name of the product (default: product)') } : {}),
      ...(kind === 'language' ? {
        banner: z.unknown().optional().describe('Accepted for Mintlify files; the site-wide banner applies (warning)'),
        footer: z.unknown().optional().describe('Accepted for Mintlify files; the site-wide footer applies (warning)'),
        navbar: z.unknown().optional().describe('Accepted for Mintlify files; the site-wide navbar applies (warning)'),
      } : {}),
      global: z.unknown().optional().describe('Accepted for Mintlify files; the top-level navigation.global applies (warning)'),
      ...unsupported,
    }))
    // A language or version without pages shows the default one's navigation in its own folder;
    // another division without pages or href shows nothing (Mintlify accepts it; the build warns).
    .transform((value): NavigationDivision => {
      const v = value as Record<string, unknown> & Children;
      return dropUndefined({
        division: kind, name: (kind === 'product' ? v.name ?? v[kind] : v[kind]) as string, ...childrenOf(v), icon: v.icon as string | undefined, href: v.href as string | undefined,
        default: v.default as boolean | undefined, tag: v.tag as string | undefined, hidden: v.hidden as boolean | undefined, description: v.description as string | undefined,
        searchable: v.searchable as boolean | undefined,
        ...(v.openapi !== undefined ? { openapi: openapiSource(v.openapi) } : {}),
        ...(v.asyncapi !== undefined ? { asyncapi: openapiSource(v.asyncapi) } : {}),
        prefix: v.prefix as string | undefined,
      });
    })
    .meta({ id: `navigation-${kind}` }) as unknown as z.ZodType<NavigationDivision, unknown>;
  divisions.set(kind, schema);
  return schema;
}

const globalLinks = Object.fromEntries(divisionKinds.filter((kind) => kind !== 'item').map((kind) => [
  plural[kind],
  z.array(z.strictObject({
    [kind]: text(), href: text(), icon, color: z.unknown().optional(),
    iconType: z.unknown().optional(), hidden: z.boolean().optional(), default: z.boolean().optional(), description: z.unknown().optional(),
  })).optional(),
])) as unknown as Record<(typeof plural)[DivisionKind], z.ZodOptional<z.ZodArray<z.ZodType<Record<string, string | undefined>, unknown>>>>;

const navigationObject = z
  .strictObject(withChildren({ global: z.strictObject(globalLinks).optional().describe('Links shown on every page'), directory, ...unsupported }))
  .transform((value): Navigation => ({
    ...childrenOf(value as Children),
    global: divisionKinds.flatMap((kind) => (value.global?.[plural[kind]] ?? []).filter((link) => link.hidden !== (true as unknown)).map((link) => dropUndefined({
      kind, label: link[kind] as string, href: link.href as string, icon: link.icon,
    }))),
  }))
  .superRefine((nav, ctx) => {
    // Each language and version is a folder and a URL segment: two may not share one.
    const dims = readDimensions(nav.items);
    const owner = new Map<string, string>();
    for (const [key, list] of [['languages', dims.languages], ['versions', dims.versions]] as const) {
      for (const d of list) {
        const other = d.prefix && owner.get(d.prefix);
        if (other) ctx.addIssue({ code: 'custom', path: [key], input: d.prefix, message: `Unexpected prefix "${d.prefix}" of ${d.name}, already the folder of ${other}; expected one folder per language and version (set "prefix")` });
        else if (d.prefix) owner.set(d.prefix, d.name);
      }
    }
  });

/**
 * `navigation`: the array form (pages and groups) or Mintlify's object form (divisions), both
 * parsed to a {@link Navigation}.
 */
export const navigationSchema = z
  .union([
    z.array(navigationEntry).transform((items): Navigation => ({ items, paths: items.map((_, i) => [i]), global: [] })),
    navigationObject,
  ], { error: expected('an array of pages and groups, or an object of tabs, anchors, languages, versions, groups or pages') })
  .describe('Explicit sidebar; omitted: derived from the content folders');

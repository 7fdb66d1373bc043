/**
 * SCIM list queries: every filter operator, logic and grouping, paging, and attribute selection.
 */
import t from 'tap';
import { startTestApi } from '../helpers/api.ts';
import { listBody, scim, scimErrorBody, scimTenant, USER } from '../helpers/scim.ts';

t.test('SCIM filters', async (t) => {
  const api = await startTestApi();
  t.teardown(() => api.close());
  const { key, orgId } = await scimTenant(api, 'team');
  const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));
  const people = [
    { userName: `Ada.Lovelace-${orgId}@Example.com`, externalId: 'ext-ada', name: { givenName: 'Ada', familyName: 'Lovelace' }, emails: [{ value: `ada-${orgId}@example.com`, type: 'work', primary: true }], at: day(1) },
    { userName: `grace-${orgId}@example.org`, name: { givenName: 'Grace', familyName: 'Hopper' }, emails: [{ value: `grace-${orgId}@example.org`, type: 'home' }], active: false, at: day(2) },
    { userName: `linus-${orgId}@example.net`, externalId: 'ext-linus', emails: [{ value: `linus-${orgId}@example.net`, type: 'work' }], at: day(3) },
  ];
  const ids: Record<string, string> = {};
  for (const p of people) {
    api.clock.now = p.at;
    const { at: _at, ...body } = p;
    const res = await scim(api, key, 'POST', '/Users', { schemas: [USER], ...body });
    if (res.status !== 201) throw new Error(res.text);
    ids[p.userName.split(/[-.]/)[0].toLowerCase()] = res.body.id;
  }
  api.clock.now = new Date();
  const names = async (filter: string) => {
    const res = await scim(api, key, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
    return res.status === 200 ? res.body.Resources.map((r: any) => r.userName.split(/[-.]/)[0].toLowerCase()) : res.body;
  };

  t.test('should apply every operator, with and, or, not and parentheses', async (t) => {
    const cases: [string, string[]][] = [
      [`userName eq "ada.lovelace-${orgId}@example.com"`, ['ada']],
      [`USERNAME EQ "ADA.LOVELACE-${orgId}@EXAMPLE.COM"`, ['ada']],
      [`userName ne "grace-${orgId}@example.org"`, ['ada', 'linus']],
      ['userName co "EXAMPLE.O"', ['grace']],
      ['userName sw "li"', ['linus']],
      ['userName ew ".net"', ['linus']],
      ['externalId pr', ['ada', 'linus']],
      ['externalId eq "EXT-ADA"', []],
      ['externalId eq "ext-ada"', ['ada']],
      ['name.familyName pr', ['ada', 'grace']],
      ['meta.created gt "2026-11-01T12:00:00Z"', ['grace', 'linus']],
      ['meta.created ge "2026-11-02T12:00:00.000Z"', ['grace', 'linus']],
      ['meta.lastModified lt "2026-11-02T12:00:00Z"', ['ada']],
      ['meta.lastModified le "2026-11-02T12:00:00Z"', ['ada', 'grace']],
      ['active eq false', ['grace']],
      ['active eq true and emails.type eq "work"', ['ada', 'linus']],
      ['emails[type eq "work" and value co "ada"]', ['ada']],
      ['emails.value ew ".org" or name.givenName sw "a"', ['ada', 'grace']],
      ['not (active eq true)', ['grace']],
      ['not (active eq true and externalId pr)', ['grace']],
      ['not (userName sw "ada" or userName sw "grace")', ['linus']],
      ['(userName sw "ada" or userName sw "linus") and externalId eq "ext-linus"', ['linus']],
      ['userName sw "ada" or userName sw "linus" and externalId eq "ext-linus"', ['ada', 'linus']],
      ['name.familyName eq null', ['linus']],
      [`urn:ietf:params:scim:schemas:core:2.0:User:userName eq "grace-${orgId}@example.org"`, ['grace']],
    ];
    for (const [filter, expected] of cases) t.same(await names(filter), expected, filter);
  });

  t.test('should refuse malformed filters with invalidFilter', async (t) => {
    const cases: [string, string][] = [
      ['userName eq', 'Expected a value after "userName eq"'],
      ['userName foo "x"', 'Unexpected operator "foo"; expected eq, ne, co, sw, ew, gt, ge, lt, le or pr'],
      ['(userName pr', 'Expected ")" at the end of the filter'],
      ['userName pr and', 'Unexpected end of filter; expected an expression'],
      ['userName eq "x" extra', 'Unexpected "extra" in filter "userName eq \\"x\\" extra"'],
      ['meta.created gt "yesterday"', 'meta.created: Unexpected "yesterday"; expected a date-time such as "2026-11-29T00:00:00Z"'],
      ['active gt true', 'active: gt does not apply to true'],
      ['userName eq "unterminated', 'Unterminated string at character 13'],
    ];
    for (const [filter, detail] of cases) {
      const res = await scim(api, key, 'GET', `/Users?filter=${encodeURIComponent(filter)}`);
      t.same([res.status, res.body], [400, scimErrorBody(400, 'invalid_filter', detail, 'invalidFilter')], filter);
    }
  });

  t.test('should page with startIndex and count', async (t) => {
    const page = await scim(api, key, 'GET', '/Users?startIndex=2&count=1&attributes=userName');
    t.same(page.body, listBody([{ schemas: [USER], id: ids.grace, userName: people[1].userName, meta: page.body.Resources[0].meta }], 3, 2));
    const past = await scim(api, key, 'GET', '/Users?startIndex=9&count=5');
    t.same(past.body, { ...listBody([], 3, 9) });
    const none = await scim(api, key, 'GET', '/Users?count=0');
    t.same(none.body, listBody([], 3));
    const bad = await scim(api, key, 'GET', '/Users?count=many');
    t.same([bad.status, bad.body], [400, scimErrorBody(400, 'invalid_request', 'count: expected a whole number', 'invalidValue')]);
  });

  t.test('should return only the attributes asked for, or all but the excluded', async (t) => {
    const only = await scim(api, key, 'GET', `/Users/${ids.ada}?attributes=name.givenName,emails.value`);
    t.same(only.body, { schemas: [USER], id: ids.ada, name: { givenName: 'Ada' }, emails: [{ value: `ada-${orgId}@example.com` }], meta: only.body.meta });
    const without = await scim(api, key, 'GET', `/Users/${ids.ada}?excludedAttributes=emails,groups,name.familyName,id`);
    t.same(Object.keys(without.body), ['schemas', 'id', 'externalId', 'userName', 'name', 'active', 'meta'], 'id is always returned');
    t.same(without.body.name, { givenName: 'Ada' });
  });
});

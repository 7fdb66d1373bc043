/**
 * Models of custom roles and SCIM provisioning, bound to the connection of the other models.
 * They are compiled on first use and their indexes (the unique ones settle concurrent creates)
 * are built before the first query through them.
 */
import type { Model } from 'mongoose';
import { customRoleSchema, type CustomRole } from './custom-role.ts';
import type { Models } from './index.ts';
import { scimGroupSchema, type ScimGroup } from './scim-group.ts';
import { scimUserSchema, type ScimUser } from './scim-user.ts';

export interface AccessModels {
  CustomRole: Model<CustomRole>;
  ScimUser: Model<ScimUser>;
  ScimGroup: Model<ScimGroup>;
}

const cache = new WeakMap<object, Promise<AccessModels>>();

/** The custom-role and SCIM models on `m`'s connection, with their indexes in place. */
export function accessModels(m: Models): Promise<AccessModels> {
  const connection = m.Membership.db;
  let ready = cache.get(connection);
  if (!ready) {
    const am: AccessModels = {
      CustomRole: connection.models.CustomRole as Model<CustomRole> ?? connection.model<CustomRole>('CustomRole', customRoleSchema, 'custom_roles'),
      ScimUser: connection.models.ScimUser as Model<ScimUser> ?? connection.model<ScimUser>('ScimUser', scimUserSchema, 'scim_users'),
      ScimGroup: connection.models.ScimGroup as Model<ScimGroup> ?? connection.model<ScimGroup>('ScimGroup', scimGroupSchema, 'scim_groups'),
    };
    ready = Promise.all(Object.values(am).map((model: Model<unknown>) => model.createIndexes())).then(() => am);
    ready.catch(() => cache.delete(connection));
    cache.set(connection, ready);
  }
  return ready;
}

export type { CustomRole, ScimGroup, ScimUser };

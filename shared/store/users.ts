import type { UserRepository } from '../app/ports';
import { normalizeEmail, type User } from '../domain/orgs';
import { putIfAbsent } from './conditional-writes';
import { userKey } from './keys';
import { getItem, type StoredItem, type TableClient } from './table-client';

/** Users, keyed by their normalized e-mail (docs/data-model.md). */
export function createUserRepository(table: TableClient): UserRepository {
  return {
    async get(email) {
      const item = await getItem(table, userKey(email));
      return item ? toUser(item) : null;
    },

    async ensure(user) {
      const stored: User = { email: normalizeEmail(user.email), name: user.name, createdAt: user.createdAt };
      const existing = await putIfAbsent(table, userKey(stored.email), toUserItem(stored));
      return existing ? toUser(existing) : stored;
    },
  };
}

/** A user's stored item, its key aside. */
export function toUserItem(user: User): StoredItem {
  return {
    type: 'user',
    version: 1,
    email: user.email,
    name: user.name ?? undefined,
    createdAt: user.createdAt,
  };
}

function toUser(item: StoredItem): User {
  return {
    email: item.email as string,
    name: (item.name as string | undefined) ?? null,
    createdAt: item.createdAt as string,
  };
}

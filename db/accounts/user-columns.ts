import { users } from "../schema";

/**
 * The columns of a user that may leave the server: never the password hash. In a file of its own so
 * that both db/accounts/users.ts and db/accounts/sessions.ts (which users.ts imports) can select them.
 */
export const publicUserColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  roles: users.roles,
  active: users.active,
  mustChangePassword: users.mustChangePassword,
  createdAt: users.createdAt,
};

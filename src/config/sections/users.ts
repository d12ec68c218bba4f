// Profile section "users": typed view of schemas/profile/users.schema.json.
export interface UsersProfile {
  existingUserId?: string;
}

import mongoose from "mongoose";
import { addressOwner, slotList } from "./slots.server";

const UserSchema = new mongoose.Schema(
  {
    email: { type: String, required: true, unique: true, lowercase: true, trim: true },
    password_hash: { type: String, required: true },
    full_name: { type: String, default: null },
    // Set once the owner of the address opened a link we e-mailed to it; only
    // then do guest orders bought with this address join the account.
    email_verified_at: { type: Date, default: null },
    // Set while two-factor sign-in is on (its key and recovery codes: two_factors).
    two_factor_enabled_at: { type: Date, default: null },
  },
  { collection: "users", timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const },
);

/**
 * The accounts of an e-mail address, found by `_id` (slots.server.ts): the owner is the address's SHA-256, each
 * member a user's id. Sign-in, sign-up, a password reset and a payment find the account of an address through it
 * (`findUserByEmail`), never by scanning every user for `email` (FerretDB on SQLite scans every query but an `_id`
 * lookup: a sign-in would slow with every account ever made). The hooks below add a user before it is stored, and
 * an account's address never changes; the reader checks `email`. `users.email` stays unique.
 */
export const emailUsers = slotList("EmailUser", "email_users");

/** Lists the user under its address (before it is stored, from the hooks: an account is never stored unlisted). */
export async function listUser(doc: { _id?: unknown; email?: unknown }) {
  doc._id ??= new mongoose.Types.ObjectId(); // the default, given here so the list can name it first
  if (typeof doc.email === "string") await emailUsers.add(addressOwner(doc.email), String(doc._id));
}
/**
 * Before an account is stored: listed under its address, unless the address has an account already. That insert
 * fails on the unique `email`, and a slot naming it would stay: each sign-up tried with a taken address would
 * lengthen the walk every sign-in of that address makes.
 */
async function listNewUser(doc: { _id?: unknown; email?: unknown }) {
  if (typeof doc.email === "string" && (await findUserByEmail(doc.email))) return;
  await listUser(doc);
}
UserSchema.pre("save", async function () {
  if (this.isNew) await listNewUser(this);
});
UserSchema.pre("insertMany", async function (docs: unknown) {
  await Promise.all(([] as { _id?: unknown; email?: unknown }[]).concat(docs as never).map(listNewUser));
});

export const User = mongoose.model("User", UserSchema);

type UserLean = mongoose.InferSchemaType<typeof UserSchema> & { _id: mongoose.Types.ObjectId };

/** The account of an e-mail address (any case, spaces around it), or null: by `_id` only (`emailUsers`). */
export async function findUserByEmail(email: string): Promise<UserLean | null> {
  const address = email.trim().toLowerCase();
  const users = await Promise.all(
    (await emailUsers.members(addressOwner(address))).map((id) =>
      mongoose.isValidObjectId(id) ? User.findById(id).lean<UserLean>() : null,
    ),
  );
  return users.find((user) => user?.email === address) ?? null;
}

/** A role row (user_roles); "admin" is the only role with powers. */
const UserRoleSchema = new mongoose.Schema(
  {
    user_id: { type: String, required: true },
    role: { type: String, enum: ["admin"], required: true },
  },
  { collection: "user_roles", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

UserRoleSchema.index({ user_id: 1, role: 1 }, { unique: true });

export const UserRole = mongoose.model("UserRole", UserRoleSchema);

import mongoose from "mongoose";

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

export const User = mongoose.model("User", UserSchema);

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

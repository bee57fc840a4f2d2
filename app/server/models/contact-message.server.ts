import mongoose from "mongoose";

const ContactMessageSchema = new mongoose.Schema(
  {
    name: { type: String, required: true, maxlength: 100 },
    email: { type: String, required: true, maxlength: 255 },
    phone: { type: String, default: null, maxlength: 20 },
    message: { type: String, required: true, maxlength: 1000 },
  },
  { collection: "contact_messages", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

ContactMessageSchema.index({ created_at: -1 });

export const ContactMessage = mongoose.model("ContactMessage", ContactMessageSchema);

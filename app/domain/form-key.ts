/**
 * Every form that creates something carries a key made when the page is
 * rendered (root loader), in this hidden field. A post that reached the server
 * but whose answer was lost is sent again with the same key, and the server
 * answers it as it answered the first (app/server/form-keys.server.ts).
 */
export const FORM_KEY_FIELD = "formKey";

/** What a key looks like: 22-64 URL-safe base64 characters. */
export const FORM_KEY_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

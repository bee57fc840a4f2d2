// Which stored encoding a response is sent in. Express's req.acceptsEncodings() breaks a tie in quality by the
// order the client lists them, and Chromium sends "gzip, deflate, br, zstd": brotli (the smaller, 12-14 KB less
// script per form page) was never chosen. Here a tie goes to the first of `available`, in our order of preference.
import Negotiator from "negotiator";

/** The encoding to send, from `available` in order of preference (e.g. ["br", "gzip", "identity"]); undefined: none acceptable. */
export const preferredEncoding = (req, available) => new Negotiator(req).encodings(available, available)[0];

import { createContext, useContext } from "react";

/** The Content-Security-Policy nonce for this response (server only; the browser does not need it). */
export const NonceContext = createContext<string>("");
export const useNonce = () => useContext(NonceContext);

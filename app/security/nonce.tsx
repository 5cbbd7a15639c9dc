import { createContext, useContext } from "react";

/** The CSP nonce of the current response; empty in the browser, which hides nonces from scripts. */
export const NonceContext = createContext("");

export function useNonce() {
  return useContext(NonceContext);
}

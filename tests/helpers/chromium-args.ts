/** Chromium's own DNS stays off the network in tests (it otherwise looks up Google hosts at start). */
export const TEST_BROWSER_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'];

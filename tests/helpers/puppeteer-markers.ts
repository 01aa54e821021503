/**
 * Strings only puppeteer-core's own code holds: a bundle that contains one has puppeteer in it (tests/stacks/bundle.ts,
 * bench/coldstart.ts). Not CDP method names Glance itself sends (consent.ts sends Target.setAutoAttach).
 */
export const PUPPETEER_MARKERS = ['DOM.describeNode', 'Page.captureScreenshot', 'Page.setLifecycleEventsEnabled', 'iPhone 15 Pro'];

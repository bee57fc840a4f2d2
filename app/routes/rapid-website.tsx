// /rapid-website is where checkout sends people back to: it is the 24-Hour Website offer page.
export { default, handle, meta } from "./24-hour-website";

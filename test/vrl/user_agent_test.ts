/** `parse_user_agent`: VRL's documented examples and result shapes per mode. */

import { ok, rejects, table } from "./harness.ts";

const FIREFOX =
  "Mozilla Firefox 1.0.1 Mozilla/5.0 (X11; U; Linux i686; de-DE; rv:1.7.6) Gecko/20050223 Firefox/1.0.1";
const IE = "Mozilla/4.0 (compatible; MSIE 7.66; Windows NT 5.1; SV1; .NET CLR 1.1.4322)";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 14_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.1 Mobile/15E148 Safari/604.1";
const CHROME_WIN =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.124 Safari/537.36";
const MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.1 Safari/605.1.15";
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

table("parse_user_agent (VRL docs examples)", [
  ok(`parse_user_agent("${FIREFOX}")`, {
    browser: { family: "Firefox", version: "1.0.1" },
    device: { category: "pc" },
    os: { family: "Linux", version: null },
  }),
  ok(`parse_user_agent("${IE}", mode: "enriched")`, {
    browser: { family: "Internet Explorer", major: "7", minor: "66", patch: null, version: "7.66" },
    device: { brand: null, category: "pc", family: "Other", model: null },
    os: {
      family: "Windows XP",
      major: "NT",
      minor: "5.1",
      patch: null,
      patch_minor: null,
      version: "NT 5.1",
    },
  }),
  ok(`parse_user_agent("${IE}", mode: "reliable")`, {
    browser: { family: "Internet Explorer", version: "7.66" },
    device: { category: "pc" },
    os: { family: "Windows XP", version: "NT 5.1" },
  }),
]);

table("parse_user_agent (names and categories)", [
  ok(`parse_user_agent("${CHROME_WIN}")`, {
    browser: { family: "Chrome", version: "91.0.4472.124" },
    device: { category: "pc" },
    os: { family: "Windows 10", version: "NT 10.0" },
  }),
  ok(`parse_user_agent("${MAC}").os`, { family: "Mac OSX", version: "10.15.7" }),
  ok(`parse_user_agent("${IPHONE}", mode: "enriched")`, {
    browser: { family: "Safari", major: "14", minor: "1", patch: "1", version: "14.1.1" },
    device: { brand: "Apple", category: "smartphone", family: "iPhone", model: "iPhone" },
    os: { family: "iPhone", major: "14", minor: "6", patch: null, patch_minor: null, version: "14.6" },
  }),
  ok(`parse_user_agent("${BOT}").device.category`, "crawler"),
  ok(`parse_user_agent("")`, {
    browser: { family: null, version: null },
    device: { category: null },
    os: { family: null, version: null },
  }),
  // A constant mode gives the typed result: fields read without a fallible coercion.
  ok(`x = parse_user_agent("${FIREFOX}", mode: "fast"); is_string(x.browser.family)`, true),
  rejects(`parse_user_agent("x", mode: "slow")`, "E610"),
]);

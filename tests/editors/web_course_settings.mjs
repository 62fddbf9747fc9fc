// Runs editors/web/src/course_settings.js's settingChange on the cases given as JSON (argv[2]):
// [text, key, value] each; prints each resulting text and the value settingOf reads back.
globalThis.__MFLS_HOSTS__ = [];
globalThis.__MFLS_TARGETS__ = [];
const url = new URL("../../editors/web/src/course_settings.js", import.meta.url);
const { settingChange, settingOf } = await import(url);
const out = JSON.parse(process.argv[2]).map(([text, key, value]) => {
  const change = settingChange(text, key, value);
  const result = change ? text.slice(0, change.from) + change.insert + text.slice(change.to) : text;
  return { result, read: settingOf(result, key) };
});
console.log(JSON.stringify(out));

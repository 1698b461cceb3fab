// What a page's console says, as the web tests judge it: every line kept for the page's log, and the console
// errors, uncaught exceptions and error log entries, each of which fails the page.
//
//   const { errors, console } = listenToConsole(page);   // before Runtime.enable and Log.enable
export function listenToConsole(page) {
  const errors = [];
  const console = [];
  page.on("Runtime.consoleAPICalled", ({ type, args }) => {
    const text = args.map((a) => a.value ?? a.description ?? a.type).join(" ");
    console.push(`console.${type}: ${text}`);
    if (type === "error") errors.push(`console.error: ${text}`);
  });
  page.on("Runtime.exceptionThrown", ({ exceptionDetails: d }) => {
    const text = `exception: ${d.exception?.description ?? d.text} (${d.url ?? ""}:${d.lineNumber})`;
    console.push(text);
    errors.push(text);
  });
  page.on("Log.entryAdded", ({ entry }) => {
    const text = `log.${entry.level} (${entry.source}): ${entry.text}${entry.url ? " " + entry.url : ""}`;
    console.push(text);
    if (entry.level === "error") errors.push(text);  // index.html names an empty icon: no /favicon.ico request
  });
  return { errors, console };
}

/**
 * The playground's stylesheet, inlined in its `<style>` and allowed by its hash in the page's CSP. System fonts
 * only: nothing is loaded from anywhere else. No `style` attributes anywhere (a hash does not cover them).
 */
export const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #59636e; --bg: #fff; --panel: #f6f8fa; --line: #d1d9e0; --accent: #0969da; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d; --accent: #4493f8; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 880px; margin: 0 auto; padding: 24px 16px 64px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 15px; margin: 24px 0 8px; }
p.lead { margin: 0 0 20px; color: var(--muted); }
code, pre, textarea, input.mono { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
form { display: grid; gap: 12px; padding: 16px; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; }
legend { font-weight: 600; padding: 0; margin-bottom: 4px; float: left; width: 100%; }
label { display: inline-flex; gap: 6px; align-items: center; }
input[type=url], input[type=text], input[type=password], select { padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); font: inherit; }
input[type=url] { width: 100%; font-size: 16px; }
.row { display: flex; gap: 8px; }
.row > input { flex: 1; min-width: 0; }
button { padding: 6px 14px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); font: inherit; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
button:disabled { opacity: .6; cursor: progress; }
#status { margin: 16px 0 0; color: var(--muted); }
#status.failed { color: #d1242f; }
.card { display: flex; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; color: inherit; text-decoration: none; max-width: 600px; }
.card-image { width: 160px; min-height: 120px; object-fit: cover; flex: none; background: var(--panel); }
.card-body { padding: 12px 14px; min-width: 0; display: flex; flex-direction: column; gap: 4px; }
.card-title { font-weight: 600; overflow-wrap: anywhere; }
.card-description { color: var(--muted); font-size: 14px; overflow-wrap: anywhere; }
.card-footer { display: flex; gap: 6px; align-items: center; color: var(--muted); font-size: 13px; margin-top: auto; }
.card-logo { width: 16px; height: 16px; object-fit: contain; }
#shot { display: block; max-width: 100%; border: 1px solid var(--line); border-radius: 6px; }
pre { margin: 0; padding: 12px; overflow: auto; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); white-space: pre-wrap; overflow-wrap: anywhere; }
#json { max-height: 480px; }
.copy { display: flex; gap: 8px; align-items: flex-start; }
.copy > :first-child { flex: 1; min-width: 0; }
`;

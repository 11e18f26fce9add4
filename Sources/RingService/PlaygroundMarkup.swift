/// The playground's HTML, CSS and JavaScript. Kept apart from the response so the policy
/// hashes cover exactly the text between `<script>` / `<style>` and their end tags.
enum PlaygroundMarkup {
    static func html(style: String, script: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>ring playground</title>
        <link rel="icon" type="image/svg+xml" href="/ring.svg?p=72&amp;size=32&amp;width=6&amp;label=none">
        <style>\(style)</style>
        </head>
        <body>
        <header><h1>ring</h1><p>Build a progress ring, then copy its URL.</p></header>
        <main>
        <form id="controls" aria-label="Ring parameters"></form>
        <section id="result" aria-label="Preview and snippets">
        <div id="stage"><img id="preview" alt="Ring preview"></div>
        <p id="status" role="status" aria-live="polite"></p>
        <fieldset id="format"><legend>Image format</legend>
        <label><input type="radio" name="format" value="svg" id="format-svg" checked> SVG</label>
        <label><input type="radio" name="format" value="png" id="format-png"> PNG (e-mail, chat, og:image)</label>
        </fieldset>
        <div id="snippets"></div>
        </section>
        </main>
        <footer><p>Every parameter is described in the project's docs/parameters.md.</p></footer>
        <script>\(script)</script>
        </body>
        </html>
        """
    }

    static let style = #"""
        :root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--field:#f6f8fa;--accent:#0969da;--error:#d1242f;--stage:#f6f8fa}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--field:#151b23;--accent:#4493f8;--error:#f85149;--stage:#151b23}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        header,footer{padding:1rem 1.5rem}header h1{margin:0;font-size:1.5rem}header p,footer p{margin:.25rem 0 0;color:var(--muted)}
        main{display:grid;grid-template-columns:minmax(280px,420px) 1fr;gap:1.5rem;padding:0 1.5rem}
        @media (max-width:760px){main{grid-template-columns:1fr}}
        form{display:grid;grid-template-columns:1fr 1fr;gap:.6rem .9rem;align-content:start}
        .field{display:flex;flex-direction:column;gap:.2rem;min-width:0}
        .field.wide{grid-column:1/-1}
        label{font-weight:600;font-size:.85rem}
        .hint{color:var(--muted);font-size:.78rem}
        input,select{font:inherit;color:inherit;background:var(--field);border:1px solid var(--line);border-radius:6px;padding:.35rem .5rem;min-width:0;width:100%}
        input[type=checkbox]{width:auto;align-self:flex-start;margin:.3rem 0}
        input[type=range]{padding:0}
        input[type=color]{width:2.4rem;height:2.1rem;padding:.1rem;flex:none}
        .pair{display:flex;gap:.4rem}
        input:focus-visible,select:focus-visible,button:focus-visible{outline:2px solid var(--accent);outline-offset:1px}
        [aria-invalid=true]{border-color:var(--error)}
        .error{color:var(--error);font-size:.8rem;min-height:0}
        input[type=color].none{opacity:.25}
        .error:empty{display:none}
        #stage{display:flex;align-items:center;justify-content:center;min-height:280px;background:var(--stage);border:1px solid var(--line);border-radius:10px;padding:1rem}
        #preview{max-width:100%;height:auto}
        #status{color:var(--muted);min-height:1.4em}
        #format{border:1px solid var(--line);border-radius:6px;margin:.6rem 0;padding:.3rem .7rem;display:flex;gap:1.2rem;align-items:center}
        #format legend{font-weight:600;font-size:.85rem;padding:0 .3rem}
        #format label{font-weight:400;display:inline-flex;align-items:center;gap:.35rem}
        #format input{width:auto;margin:0}
        .snippet{margin:.8rem 0}
        .snippet label{display:block;margin-bottom:.2rem}
        .snippet .pair{align-items:stretch}
        textarea{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:inherit;background:var(--field);border:1px solid var(--line);border-radius:6px;padding:.4rem .5rem;width:100%;resize:vertical}
        button{font:inherit;font-size:.85rem;color:#fff;background:var(--accent);border:0;border-radius:6px;padding:.35rem .8rem;cursor:pointer;flex:none}
        """#

    static let script = #"""
        "use strict";
        \#(PlaygroundFields.javaScript)
        const form = document.getElementById("controls");
        const preview = document.getElementById("preview");
        const status = document.getElementById("status");
        const snippets = document.getElementById("snippets");
        const controls = {};
        const swatches = {};
        const probe = document.createElement("canvas").getContext("2d");

        function element(tag, attributes, text) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(attributes || {})) {
            if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
          }
          if (text !== undefined) node.textContent = text;
          return node;
        }

        for (const field of fields) {
          const id = "f-" + field.name;
          const box = element("div", {class: "field" + (field.wide ? " wide" : "")});
          box.append(element("label", {for: id}, field.label + " (" + field.name + ")"));
          let input;
          if (field.type === "select") {
            input = element("select", {id: id, name: field.name});
            for (const option of field.options) input.append(element("option", {value: option}, option));
          } else if (field.type === "checkbox") {
            input = element("input", {id: id, name: field.name, type: "checkbox"});
          } else {
            const type = field.type === "color" ? "text" : field.type;
            input = element("input", {id: id, name: field.name, type: type, min: field.min, max: field.max,
              step: field.step, placeholder: field.placeholder, required: field.required, inputmode: field.inputmode,
              autocomplete: "off",
              spellcheck: "false", "aria-describedby": "e-" + field.name + (field.hint ? " h-" + field.name : "")});
          }
          controls[field.name] = input;
          if (field.type === "color") {
            const pair = element("div", {class: "pair"});
            const picker = element("input", {type: "color", "aria-label": "Pick " + field.label.toLowerCase(), tabindex: "0"});
            picker.addEventListener("input", () => { input.value = picker.value.slice(1); update(); });
            swatches[field.name] = picker;
            pair.append(input, picker);
            box.append(pair);
          } else {
            box.append(input);
          }
          if (field.hint) box.append(element("span", {class: "hint", id: "h-" + field.name}, field.hint));
          box.append(element("span", {class: "error", id: "e-" + field.name, role: "alert"}));
          input.addEventListener(field.type === "text" || field.type === "number" || field.type === "color" ? "input" : "change", update);
          if (field.type === "range") input.addEventListener("input", update);
          form.append(box);
        }

        const snippetFields = [
          ["url", "Image URL"], ["markdown", "Markdown"], ["html", "HTML"], ["picture", "Light and dark (<picture>)"],
        ];
        const snippetAreas = {};
        for (const [key, title] of snippetFields) {
          const box = element("div", {class: "snippet"});
          const id = "s-" + key;
          box.append(element("label", {for: id}, title));
          const pair = element("div", {class: "pair"});
          const area = element("textarea", {id: id, readonly: true, rows: key === "picture" ? "4" : "2"});
          const button = element("button", {type: "button", id: "copy-" + key, "aria-label": "Copy " + title}, "Copy");
          button.addEventListener("click", () => copy(area, button));
          pair.append(area, button);
          box.append(pair);
          snippets.append(box);
          snippetAreas[key] = area;
        }

        function truthy(value) { return ["", "1", "true", "yes", "on"].includes(String(value).toLowerCase()); }

        // SVG or PNG: which route the preview and the snippets use, kept in the page's #fragment
        // so the query stays the ring's own.
        const formatPNG = document.getElementById("format-png");
        for (const radio of document.querySelectorAll("input[name=format]")) radio.addEventListener("change", update);
        function format() { return formatPNG.checked ? "png" : "svg"; }

        function load() {
          formatPNG.checked = location.hash === "#png";
          document.getElementById("format-svg").checked = !formatPNG.checked;
          const params = new URLSearchParams(location.search);
          for (const field of fields) {
            const input = controls[field.name];
            const value = params.get(field.name);
            if (field.type === "checkbox") input.checked = value !== null ? truthy(value) : field.def;
            else input.value = value !== null ? value : (field.name === "p" ? "72" : field.def);
          }
        }

        function query(overrides) {
          const params = new URLSearchParams();
          for (const field of fields) {
            const input = controls[field.name];
            let value = field.type === "checkbox" ? input.checked : input.value.trim();
            if (overrides && field.name in overrides) value = overrides[field.name];
            if (field.type === "checkbox") { if (value) params.append(field.name, "1"); continue; }
            if (field.name === "p" || (value !== "" && value !== field.def)) params.append(field.name, value);
          }
          // Commas separate list items (p=72,45,90) and need no escape in a query.
          return params.toString().replace(/%2C/gi, ",");
        }

        // The swatch shows the colour the ring draws: the field's own, or the scheme's default
        // when it is empty, and a dimmed swatch when the ring draws nothing there.
        function cssColor(text) {
          const hex = text.replace(/^#/, "");
          if (/^([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(hex)) {
            const digits = hex.length <= 4 ? hex.split("").map(c => c + c).join("") : hex;
            return "#" + digits.slice(0, 6).toLowerCase();
          }
          probe.fillStyle = "#010203";
          probe.fillStyle = text;
          const parsed = probe.fillStyle;
          return parsed === "#010203" && text.toLowerCase() !== "#010203" ? null : (parsed.startsWith("#") ? parsed : null);
        }

        function paintSwatches() {
          const theme = controls.theme.value;
          const dark = theme === "dark" || (theme === "auto" && matchMedia("(prefers-color-scheme: dark)").matches);
          for (const field of fields) {
            const picker = swatches[field.name];
            if (!picker) continue;
            const text = controls[field.name].value.trim();
            const first = text.split(",")[0].trim();  // a per-ring list shows its first colour
            const color = text === "" ? (dark ? field.dark : field.light) : (first === "none" ? null : cssColor(first));
            picker.classList.toggle("none", color === null);
            if (color) picker.value = color;
          }
        }

        function escapeHTML(text) {
          return text.replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"})[c]);
        }

        let sequence = 0;
        function update() {
          paintSwatches();
          const q = query();
          const kind = format();
          const src = "/ring." + kind + "?" + q;
          preview.src = src;
          // A PNG at scale 2 has twice the pixels: show it at the ring's size, as the snippets do.
          preview.style.width = kind === "png" ? (controls.size.value.trim() || "120") + "px" : "";
          history.replaceState(null, "", "?" + q + (kind === "png" ? "#png" : ""));
          const base = location.origin + "/ring." + kind + "?";
          const url = base + q;
          const title = controls.title.value.trim();
          const alt = title || ("Progress: " + (controls.p.value.trim() || "?"));
          snippetAreas.url.value = url;
          snippetAreas.markdown.value = "![" + alt.replace(/[\[\]]/g, "") + "](" + url + ")";
          const size = controls.size.value.trim() || "120";
          const height = controls.half.checked ? "" : " height=\"" + escapeHTML(size) + "\"";
          snippetAreas.html.value = "<img src=\"" + escapeHTML(url) + "\" width=\"" + escapeHTML(size) + "\"" + height + " alt=\"" + escapeHTML(alt) + "\">";
          snippetAreas.picture.value = "<picture>\n  <source media=\"(prefers-color-scheme: dark)\" srcset=\"" +
            escapeHTML(base + query({theme: "dark"})) + "\">\n  <img src=\"" + escapeHTML(base + query({theme: "light"})) +
            "\" alt=\"" + escapeHTML(alt) + "\">\n</picture>";
          ++sequence;
          retries = 0;
        }

        // Once the preview has loaded (or failed), ask for the same image with HEAD, now a cache
        // hit, for its X-Ring-Error: asking at the same time as the image would make a new large
        // PNG two renders at once, and the second could be turned away (503).
        let retries = 0;
        function checkPreview() {
          const mine = sequence;
          const src = preview.getAttribute("src");
          fetch(src, {method: "HEAD"}).then(response => {
            if (mine !== sequence) return;
            if (response.status === 503 && retries < 5) {
              status.textContent = "The service is busy rendering; trying again.";
              retries += 1;
              const delay = 1000 * Number(response.headers.get("Retry-After") || "1");
              setTimeout(() => { if (mine === sequence) preview.src = src.replace(/&retry=\d+$/, "") + "&retry=" + retries; }, delay);
              return;
            }
            showError(response.headers.get("X-Ring-Error"));
          }).catch(() => { if (mine === sequence) status.textContent = "The service did not answer."; });
        }
        preview.addEventListener("load", checkPreview);
        preview.addEventListener("error", checkPreview);

        function showError(message) {
          for (const field of fields) {
            document.getElementById("e-" + field.name).textContent = "";
            controls[field.name].removeAttribute("aria-invalid");
          }
          if (!message) { status.textContent = ""; return; }
          const name = message.split(":")[0];
          const slot = document.getElementById("e-" + name);
          if (slot) {
            slot.textContent = message;
            controls[name].setAttribute("aria-invalid", "true");
            status.textContent = "";
          } else {
            status.textContent = message;
          }
        }

        function copy(area, button) {
          const done = () => { button.textContent = "Copied"; setTimeout(() => { button.textContent = "Copy"; }, 1500); };
          if (navigator.clipboard && window.isSecureContext) {
            navigator.clipboard.writeText(area.value).then(done, () => { area.select(); document.execCommand("copy"); done(); });
          } else {
            area.select();
            document.execCommand("copy");
            done();
          }
        }

        load();
        update();
        """#
}

import RingCore

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
        <section id="pane" aria-label="Preview and snippets">
        <div id="stage"><img id="preview" alt=""></div>
        <p id="status" role="status" aria-live="polite"></p>
        <div id="presets" role="group" aria-label="Examples"></div>
        <fieldset id="format"><legend>Image format</legend>
        <label><input type="radio" name="format" value="svg" id="format-svg" checked> SVG</label>
        <label><input type="radio" name="format" value="png" id="format-png"> PNG (e-mail, chat, og:image)</label>
        </fieldset>
        <p id="png-note" class="note" hidden>A PNG cannot follow the reader's colour scheme: under
        <code>theme=auto</code> it draws the light scheme. For a dark page,
        <button type="button" id="use-dark">use theme=dark</button>, or the
        <code>&lt;picture&gt;</code> pair below.</p>
        <div id="snippets"><p id="invalid" class="invalid" role="alert" hidden></p></div>
        </section>
        <form id="controls" aria-label="Ring parameters"></form>
        </main>
        \(reference)
        <footer><nav aria-label="Documentation"><a href="#reference">Parameter reference</a> ·
        <a id="json-link" href="/ring.json?p=72">This ring as JSON (/ring.json)</a></nav>
        <p>The guides are in the project's <code>docs/</code>: embedding.md (README, e-mail, Slack),
        parameters.md, operations.md. <code>ring parameters</code> prints the table above.</p></footer>
        <script>\(script)</script>
        </body>
        </html>
        """
    }

    /// Every parameter with its meaning, values and default, from the table the parser reads:
    /// the reference the footer links to, true for this server's version.
    static let reference: String = {
        var rows = ""
        for group in RingParameter.Group.allCases {
            rows +=
                "<tr class=\"group\"><th colspan=\"4\" scope=\"rowgroup\">"
                + escaped(PlaygroundFields.title(of: group)) + "</th></tr>\n"
            for definition in RingParameter.Definition.all where definition.group == group {
                rows +=
                    "<tr id=\"r-\(definition.name)\"><td><code>\(definition.name)</code></td><td>"
                    + [definition.summary, definition.values, definition.defaultText].map(escaped)
                    .joined(separator: "</td><td>") + "</td></tr>\n"
            }
        }
        return """
            <section id="reference" aria-labelledby="reference-title">
            <h2 id="reference-title">Parameters</h2>
            <div class="table"><table>
            <thead><tr><th scope="col">name</th><th scope="col">meaning</th><th scope="col">values</th>\
            <th scope="col">default</th></tr></thead>
            <tbody>
            \(rows)</tbody></table></div>
            </section>
            """
    }()

    /// Text as HTML character data and attribute values.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Desktop: controls on the left, the preview and snippets in a sticky column on the right.
    /// Phone (up to 760 px): the column dissolves (`display: contents`) so the preview sits
    /// above the controls and stays at the top while they scroll under it, and the snippets
    /// come after the controls.
    static let style = #"""
        :root{color-scheme:light dark;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--field:#f6f8fa;--accent:#0969da;--error:#d1242f;--stage:#f6f8fa;--note:#fff8c5}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--field:#151b23;--accent:#4493f8;--error:#f85149;--stage:#151b23;--note:#272115}}
        *{box-sizing:border-box}
        [hidden]{display:none!important}
        body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        header,footer{padding:1rem 1.5rem}header h1{margin:0;font-size:1.5rem}header p,footer p{margin:.25rem 0 0;color:var(--muted)}
        a{color:var(--accent)}
        main{display:grid;grid-template-columns:minmax(300px,440px) minmax(0,1fr);gap:1.5rem;padding:0 1.5rem;align-items:start}
        #controls{grid-column:1;grid-row:1}
        #pane{grid-column:2;grid-row:1;position:sticky;top:.75rem;max-height:calc(100vh - 1.5rem);overflow-y:auto;padding-bottom:.5rem}
        fieldset.group{border:1px solid var(--line);border-radius:8px;margin:0 0 .9rem;padding:.4rem .8rem .8rem;display:grid;grid-template-columns:1fr 1fr;gap:.6rem .9rem;min-width:0}
        fieldset.group legend{font-weight:700;padding:0 .3rem}
        .field{display:flex;flex-direction:column;gap:.2rem;min-width:0}
        .field.wide{grid-column:1/-1}
        label{font-weight:600;font-size:.85rem}
        .hint{color:var(--muted);font-size:.78rem}
        input,select{font:inherit;color:inherit;background:var(--field);border:1px solid var(--line);border-radius:6px;padding:.35rem .5rem;min-width:0;width:100%}
        input[type=checkbox]{width:auto;align-self:flex-start;margin:.3rem 0}
        input[type=range]{padding:0}
        input[type=color]{width:2.4rem;height:2.1rem;padding:.1rem;flex:none}
        output{font-variant-numeric:tabular-nums;min-width:2.6rem;text-align:right;align-self:center}
        .pair{display:flex;gap:.4rem}
        input:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:1px}
        [aria-invalid=true]{border-color:var(--error)}
        .error{color:var(--error);font-size:.8rem;min-height:0}
        input[type=color].none{opacity:.25}
        .error:empty{display:none}
        #stage{display:flex;align-items:center;justify-content:center;min-height:280px;background:var(--stage);border:1px solid var(--line);border-radius:10px;padding:1rem}
        #preview{max-width:100%;max-height:60vh;height:auto;object-fit:contain}
        #status{color:var(--muted);min-height:1.4em;margin:.4rem 0}
        #presets{display:flex;flex-wrap:wrap;gap:.4rem}
        #presets button{color:var(--fg);background:var(--field);border:1px solid var(--line)}
        #format{border:1px solid var(--line);border-radius:6px;margin:.6rem 0;padding:.3rem .7rem;display:flex;gap:1.2rem;align-items:center}
        #format legend{font-weight:600;font-size:.85rem;padding:0 .3rem}
        #format label{font-weight:400;display:inline-flex;align-items:center;gap:.35rem}
        #format input{width:auto;margin:0}
        .note{background:var(--note);border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem;margin:.6rem 0;font-size:.9rem}
        .note button{padding:.15rem .5rem}
        .invalid{color:var(--error);border:1px solid var(--error);border-radius:6px;padding:.5rem .7rem;margin:.6rem 0}
        .snippet{margin:.8rem 0}
        .snippet label{display:block;margin-bottom:.2rem}
        .snippet .pair{align-items:flex-start}
        textarea{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:inherit;background:var(--field);border:1px solid var(--line);border-radius:6px;padding:.4rem .5rem;width:100%;resize:vertical;overflow:hidden}
        textarea:disabled{opacity:.5}
        button{font:inherit;font-size:.85rem;color:#fff;background:var(--accent);border:0;border-radius:6px;padding:.35rem .8rem;cursor:pointer;flex:none}
        button:disabled{opacity:.4;cursor:not-allowed}
        #reference{padding:1rem 1.5rem}#reference h2{font-size:1.2rem;margin:0 0 .5rem}
        .table{overflow-x:auto}
        table{border-collapse:collapse;font-size:.85rem}
        th,td{text-align:left;vertical-align:top;border-bottom:1px solid var(--line);padding:.3rem .6rem}
        tr.group th{padding-top:.9rem;font-size:.95rem}
        footer nav a{margin-right:.3rem}
        @media (max-width:760px){
        header,footer,#reference{padding:.75rem}
        main{grid-template-columns:minmax(0,1fr);gap:.6rem;padding:0 .75rem}
        #pane{display:contents}
        #stage{position:sticky;top:0;z-index:2;order:0;min-height:0;height:30vh;padding:.5rem;border-radius:0 0 10px 10px;border-top:0}
        #preview{max-height:100%}
        #status{order:1;margin:0}
        #presets{order:2}
        #controls{order:3;grid-column:auto;grid-row:auto}
        #format{order:4}
        #png-note{order:5}
        #snippets{order:6}
        fieldset.group{grid-template-columns:1fr}
        }
        """#

    static let script = #"""
        "use strict";
        \#(PlaygroundFields.javaScript)
        const form = document.getElementById("controls");
        const preview = document.getElementById("preview");
        const status = document.getElementById("status");
        const snippets = document.getElementById("snippets");
        const invalid = document.getElementById("invalid");
        const pngNote = document.getElementById("png-note");
        const jsonLink = document.getElementById("json-link");
        const controls = {};
        const swatches = {};
        const outputs = {};
        const probe = document.createElement("canvas").getContext("2d");

        function element(tag, attributes, text) {
          const node = document.createElement(tag);
          for (const [key, value] of Object.entries(attributes || {})) {
            if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
          }
          if (text !== undefined) node.textContent = text;
          return node;
        }

        const fieldsets = {};
        for (const group of groups) {
          const set = element("fieldset", {class: "group", id: "g-" + group.name});
          set.append(element("legend", {}, group.title));
          fieldsets[group.name] = set;
          form.append(set);
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
          } else if (field.type === "range") {
            // A slider shows its value beside it.
            const pair = element("div", {class: "pair"});
            outputs[field.name] = element("output", {id: "o-" + field.name, for: id});
            pair.append(input, outputs[field.name]);
            box.append(pair);
          } else {
            box.append(input);
          }
          if (field.hint) box.append(element("span", {class: "hint", id: "h-" + field.name}, field.hint));
          box.append(element("span", {class: "error", id: "e-" + field.name, role: "alert"}));
          input.addEventListener(field.type === "text" || field.type === "number" || field.type === "color" ? "input" : "change", update);
          if (field.type === "range") input.addEventListener("input", update);
          fieldsets[field.group].append(box);
        }

        const presetRow = document.getElementById("presets");
        for (const preset of presets) {
          const button = element("button", {type: "button", "data-query": preset.query}, preset.title);
          button.addEventListener("click", () => { load(preset.query); update(); });
          presetRow.append(button);
        }

        const snippetFields = [
          ["url", "Image URL"], ["markdown", "Markdown"], ["html", "HTML"], ["picture", "Light and dark (<picture>)"],
        ];
        const snippetAreas = {};
        const copyButtons = {};
        for (const [key, title] of snippetFields) {
          const box = element("div", {class: "snippet"});
          const id = "s-" + key;
          box.append(element("label", {for: id}, title));
          const pair = element("div", {class: "pair"});
          const area = element("textarea", {id: id, readonly: true, rows: "1"});
          const button = element("button", {type: "button", id: "copy-" + key, "aria-label": "Copy " + title}, "Copy");
          button.addEventListener("click", () => copy(area, button));
          pair.append(area, button);
          box.append(pair);
          snippets.append(box);
          snippetAreas[key] = area;
          copyButtons[key] = button;
        }

        // A snippet's box grows to its text, so every line shows, down to </picture>.
        function fit(area) {
          area.style.height = "auto";
          area.style.height = (area.scrollHeight + area.offsetHeight - area.clientHeight) + "px";
        }
        addEventListener("resize", () => Object.values(snippetAreas).forEach(fit));

        function truthy(value) { return ["", "1", "true", "yes", "on"].includes(String(value).toLowerCase()); }

        // SVG or PNG: which route the preview and the snippets use, kept in the page's #fragment
        // so the query stays the ring's own.
        const formatPNG = document.getElementById("format-png");
        for (const radio of document.querySelectorAll("input[name=format]")) radio.addEventListener("change", update);
        function format() { return formatPNG.checked ? "png" : "svg"; }

        document.getElementById("use-dark").addEventListener("click", () => { controls.theme.value = "dark"; update(); });

        // Names the page has no control for (a misspelt `colour`, a parameter of a newer
        // server), kept from the query it loaded, in order, so the URL, the preview and the
        // snippets keep them and /ring.json's error for each shows in the status line.
        let unknown = [];

        // The controls from a query string: the page's own, or a preset's.
        function load(search) {
          const params = new URLSearchParams(search);
          const known = new Set(fields.map(field => field.name));
          unknown = [...params].filter(([name]) => !known.has(name));
          for (const field of fields) {
            const input = controls[field.name];
            const value = params.get(field.name);
            if (field.type === "checkbox") input.checked = value !== null ? truthy(value) : field.def;
            // A live ring (src=) has no p.
            else input.value = value !== null ? value : (field.name === "p" && !params.has("src") ? "72" : field.def);
          }
        }

        function query(overrides) {
          const params = new URLSearchParams();
          for (const field of fields) {
            const input = controls[field.name];
            let value = field.type === "checkbox" ? input.checked : input.value.trim();
            if (overrides && field.name in overrides) value = overrides[field.name];
            if (field.type === "checkbox") { if (value) params.append(field.name, "1"); continue; }
            const required = field.name === "p" && controls.src.value.trim() === "";
            if (required || (value !== "" && value !== field.def)) params.append(field.name, value);
          }
          for (const [name, value] of unknown) params.append(name, value);
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

        // Every change asks /ring.json for the service's own reading of the query: its errors go
        // next to the controls they name, and the snippets are offered only for a ring the
        // service would draw. `sequence` drops answers to queries that have since changed.
        let sequence = 0;
        function update() {
          paintSwatches();
          for (const [name, output] of Object.entries(outputs)) output.textContent = controls[name].value;
          const q = query();
          const kind = format();
          preview.src = "/ring." + kind + "?" + q;
          // A PNG at scale 2 has twice the pixels: show it at the ring's size, as the snippets do.
          preview.style.width = kind === "png" ? (controls.size.value.trim() || "120") + "px" : "";
          history.replaceState(null, "", "?" + q + (kind === "png" ? "#png" : ""));
          jsonLink.href = "/ring.json?" + q;
          pngNote.hidden = !(kind === "png" && controls.theme.value === "auto");
          const mine = ++sequence;
          retries = 0;
          snippets.setAttribute("aria-busy", "true");
          fetch("/ring.json?" + q).then(response => response.json()).then(body => {
            if (mine === sequence) describe(body, q, kind);
          }).catch(() => { if (mine === sequence) status.textContent = "The service did not answer."; });
        }

        function describe(body, q, kind) {
          snippets.removeAttribute("aria-busy");
          showErrors(body.errors || []);
          const refusal = body.valid ? body[kind].error : null;
          if (!body.valid || refusal) {
            const messages = refusal ? [refusal] : body.errors.map(error => error.message);
            invalid.textContent = (refusal ? "The service would refuse this " + kind.toUpperCase() : "This query is invalid")
              + ", so there is nothing to copy yet: " + messages.join("; ") + ".";
            invalid.hidden = false;
            for (const key in snippetAreas) {
              snippetAreas[key].value = "";
              snippetAreas[key].disabled = true;
              copyButtons[key].disabled = true;
              fit(snippetAreas[key]);
            }
            preview.alt = "Error image: " + messages[0];
            return;
          }
          invalid.hidden = true;
          // A live ring: where its values came from, and what they are now.
          if (body.source) {
            status.textContent = "Values read from " + body.source.url + ": " +
              body.rings.map(ring => ring.value).join(", ") + " (" + body.source.state + ", for " + body.source.maxAge + " s).";
          }
          const base = location.origin + "/ring." + kind + "?";
          const url = base + q;
          // The title when there is one, else every ring's percentage as its label writes it.
          const alt = controls.title.value.trim() || body.rings.map(ring => ring.percentageText).join(", ");
          preview.alt = alt;
          const size = body[kind].width / (kind === "png" ? Number(controls.scale.value || "1") : 1);
          const height = body[kind].height / (kind === "png" ? Number(controls.scale.value || "1") : 1);
          const text = {
            url: url,
            markdown: "![" + alt.replace(/[\[\]]/g, "") + "](" + url + ")",
            html: "<img src=\"" + escapeHTML(url) + "\" width=\"" + size + "\" height=\"" + height + "\" alt=\"" + escapeHTML(alt) + "\">",
            picture: "<picture>\n  <source media=\"(prefers-color-scheme: dark)\" srcset=\"" +
              escapeHTML(base + query({theme: "dark"})) + "\">\n  <img src=\"" + escapeHTML(base + query({theme: "light"})) +
              "\" width=\"" + size + "\" height=\"" + height + "\" alt=\"" + escapeHTML(alt) + "\">\n</picture>",
          };
          for (const key in snippetAreas) {
            snippetAreas[key].value = text[key];
            snippetAreas[key].disabled = false;
            copyButtons[key].disabled = false;
            fit(snippetAreas[key]);
          }
        }

        // A busy service answers an image with 503: ask with HEAD for its Retry-After, and load
        // the image again after it, a few times. (Asking at the same time as the image would
        // make a new large PNG two renders at once.)
        let retries = 0;
        preview.addEventListener("error", () => {
          const mine = sequence;
          const src = preview.getAttribute("src");
          fetch(src, {method: "HEAD"}).then(response => {
            if (mine !== sequence || response.status !== 503 || retries >= 5) return;
            status.textContent = "The service is busy rendering; trying again.";
            retries += 1;
            const delay = 1000 * Number(response.headers.get("Retry-After") || "1");
            setTimeout(() => { if (mine === sequence) preview.src = src.replace(/&retry=\d+$/, "") + "&retry=" + retries; }, delay);
          }).catch(() => { if (mine === sequence) status.textContent = "The service did not answer."; });
        });
        preview.addEventListener("load", () => { if (status.textContent.startsWith("The service is busy")) status.textContent = ""; });

        // Each error next to the control it names; one naming no control (an unknown
        // parameter, the whole query) in the status line.
        function showErrors(errors) {
          const unplaced = [];
          for (const field of fields) {
            document.getElementById("e-" + field.name).textContent = "";
            controls[field.name].removeAttribute("aria-invalid");
          }
          for (const error of errors) {
            const slot = document.getElementById("e-" + error.parameter);
            if (slot && controls[error.parameter]) {
              slot.textContent = (slot.textContent ? slot.textContent + " " : "") + error.message;
              controls[error.parameter].setAttribute("aria-invalid", "true");
            } else {
              unplaced.push(error.message);
            }
          }
          status.textContent = unplaced.join("; ");
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

        formatPNG.checked = location.hash === "#png";
        document.getElementById("format-svg").checked = !formatPNG.checked;
        load(location.search);
        update();
        """#
}

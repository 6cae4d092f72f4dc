import Hummingbird

/// The page at `/`: plain HTML and a small script, no build step. It reads `/events` (with
/// the token, when the page was opened with `?token=`, kept in the page only) and draws each
/// snapshot; its buttons POST to the JSON API.
enum LivePage {
    static var response: Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>ferry run</title>
        <style>
        body { font: 14px system-ui, sans-serif; margin: 1.5em; color: #222; }
        h1 { font-size: 1.3em; } h2 { font-size: 1.05em; margin-top: 1.5em; }
        table { border-collapse: collapse; } td, th { padding: .25em .6em; text-align: left; border-bottom: 1px solid #ddd; vertical-align: top; }
        .muted { color: #777; } .bad { color: #b00; } .good { color: #070; }
        button { margin-right: .3em; } #connection { float: right; }
        </style>
        </head>
        <body>
        <h1>ferry run <span id="connection" class="muted">connecting…</span></h1>
        <p id="connectivity" class="muted"></p>
        <p id="error" class="bad"></p>
        <h2>Plugins</h2>
        <table id="plugins"><thead><tr><th>plugin</th><th>pending</th><th>waiting</th><th>dead</th><th>conflicts</th><th>last sync</th></tr></thead><tbody></tbody></table>
        <h2>Operations</h2>
        <table id="operations"><thead><tr><th>id</th><th>plugin</th><th>kind</th><th>entity</th><th>state</th><th>why</th><th></th></tr></thead><tbody></tbody></table>
        <h2>Conflicts</h2>
        <table id="conflicts"><thead><tr><th>id</th><th>plugin</th><th>entity</th><th>reason</th><th></th></tr></thead><tbody></tbody></table>
        <h2>Transfers</h2>
        <table id="transfers"><thead><tr><th>file</th><th>progress</th></tr></thead><tbody></tbody></table>
        <h2>Recent events</h2>
        <table id="events"><thead><tr><th>time</th><th>event</th><th>plugin</th><th>detail</th></tr></thead><tbody></tbody></table>
        <script>
        "use strict";
        const params = new URLSearchParams(location.search);
        const token = params.get("token");
        if (token) history.replaceState(null, "", location.pathname);
        const headers = token ? { "Authorization": "Bearer " + token } : {};

        function cell(row, text, cls) {
          const td = row.insertCell(); td.textContent = text == null ? "" : String(text);
          if (cls) td.className = cls; return td;
        }
        function fill(id, items, draw, empty) {
          const body = document.querySelector("#" + id + " tbody");
          body.replaceChildren();
          if (items.length === 0) { const r = body.insertRow(); const td = cell(r, empty, "muted"); td.colSpan = 9; return; }
          for (const item of items) draw(body.insertRow(), item);
        }
        function button(td, label, action, path, body) {
          const b = document.createElement("button");
          b.textContent = label; b.dataset.action = action;
          b.onclick = async () => {
            if (action === "discard" && !confirm("Discard this operation? Its change will never reach the remote.")) return;
            b.disabled = true;
            const answer = await fetch(path, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
            const text = await answer.text();
            document.getElementById("error").textContent = answer.ok ? "" : (JSON.parse(text).error || {}).message || text;
            b.disabled = false;
          };
          td.appendChild(b);
        }
        function waiting(p) {
          const parts = [];
          if (p.needs_login) parts.push("needs login");
          if (p.waiting_for_connectivity) parts.push(p.waiting_for_connectivity + " offline");
          if (p.backing_off) parts.push(p.backing_off + " backing off");
          if (p.waiting_for_unmetered) parts.push(p.waiting_for_unmetered + " need unmetered");
          if (p.waiting_for_configuration) parts.push(p.waiting_for_configuration + " need a configuration change");
          if (p.held_for_account) parts.push(p.held_for_account + " held for an account");
          if (p.queued) parts.push(p.queued + " behind others");
          return parts.join(", ");
        }
        function draw(s) {
          const c = s.status.connectivity;
          const line = document.getElementById("connectivity");
          line.textContent = (c.reachable ? "online" : "offline") + " · " + c.interface + (c.metered ? " · metered" : "") + " · " + c.source;
          line.className = c.reachable ? "good" : "bad";
          fill("plugins", s.status.plugins, (r, p) => {
            cell(r, p.plugin); cell(r, p.pending + p.queued + p.in_flight); cell(r, waiting(p));
            cell(r, p.dead, p.dead ? "bad" : ""); cell(r, p.conflicts, p.conflicts ? "bad" : ""); cell(r, p.last_sync || "never", "muted");
          }, "no plugins enabled");
          fill("operations", s.operations, (r, o) => {
            r.dataset.operation = o.id; r.dataset.state = o.state;
            cell(r, o.short_id); cell(r, o.plugin); cell(r, o.kind); cell(r, o.entity);
            cell(r, o.state, o.state === "dead" ? "bad" : ""); cell(r, o.why);
            const td = cell(r, "");
            if (o.state === "dead" || o.state === "pending") button(td, "retry", "retry", "api/queue/" + o.id + "/retry");
            if (o.state !== "in_flight") button(td, "discard", "discard", "api/queue/" + o.id + "/discard");
          }, "the queue is empty");
          fill("conflicts", s.conflicts, (r, k) => {
            r.dataset.conflict = k.id;
            cell(r, k.id.slice(0, 8)); cell(r, k.plugin); cell(r, k.entity);
            cell(r, [k.reason].concat(k.fields.map(f => f.field + ": here " + JSON.stringify(f.local) + ", server " + JSON.stringify(f.remote))).join("; "));
            const td = cell(r, "");
            button(td, "keep local", "keep-local", "api/conflicts/" + k.id + "/resolve", { keep: "local" });
            button(td, "keep remote", "keep-remote", "api/conflicts/" + k.id + "/resolve", { keep: "remote" });
          }, "no open conflicts");
          fill("transfers", s.transfers, (r, t) => {
            cell(r, t.name);
            const td = cell(r, ""); const bar = document.createElement("progress");
            if (t.total) { bar.max = t.total; bar.value = t.received; } td.appendChild(bar);
            td.append(" " + t.received + (t.total ? " / " + t.total : "") + " bytes");
          }, "no transfers");
          fill("events", s.events.slice().reverse(), (r, e) => {
            cell(r, e.time, "muted"); cell(r, e.event); cell(r, e.plugin);
            cell(r, [e.kind, e.entity, e.reason, e.result].filter(x => x).join(" · "));
          }, "no events yet");
        }
        async function follow() {
          const status = document.getElementById("connection");
          try {
            const answer = await fetch("events", { headers });
            if (!answer.ok) throw new Error("the live view answered " + answer.status);
            status.textContent = "live"; status.className = "good";
            const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = "";
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              buffer += value;
              let end;
              while ((end = buffer.indexOf("\\n\\n")) >= 0) {
                const frame = buffer.slice(0, end); buffer = buffer.slice(end + 2);
                const name = (frame.match(/^event: (.*)$/m) || [])[1];
                const data = (frame.match(/^data: (.*)$/m) || [])[1];
                if (name === "snapshot" && data) draw(JSON.parse(data));
              }
            }
            status.textContent = "the runner stopped; reconnecting…";
          } catch (error) {
            status.textContent = String(error.message || error) + "; reconnecting…";
          }
          status.className = "bad";
          setTimeout(follow, 2000);
        }
        follow();
        </script>
        </body>
        </html>
        """
}

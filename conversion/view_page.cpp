#include "view_page.hpp"

#include "viewer_bundle.hpp"

#include "preview_view.hpp"

#include <string_view>

namespace msh::conversion {

namespace {

// The CSP keeps the page offline: inline code and styles, its own data: and blob: images (the
// textures the viewer decodes), nothing else.
constexpr std::string_view kHead = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: blob:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<style>
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; background: #1b1e23; color: #e8eaed;
  font: 14px/1.4 system-ui, sans-serif; }
header { padding: 6px 12px; background: #14161a; }
#viewhost { flex: 1; min-height: 0; display: flex; flex-direction: column; }
#viewhost > .mv { flex: 1; }
</style>
<title>)html";

std::string escape_text(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else
            out += c;
    }
    return out;
}

} // namespace

void require_viewer() {
    if (!viewer_built()) throw std::runtime_error("no view: " + std::string(kViewerMissing));
}

std::string view_page_html(const std::string& title, const nlohmann::json& view) {
    require_viewer();
    const std::string& bundle = viewer_bundle();
    const std::string data = script_safe_json(view);
    std::string html;
    html.reserve(bundle.size() + data.size() + 2048);
    html += kHead;
    html += escape_text(title);
    html += "</title>\n</head>\n<body>\n<header>";
    html += escape_text(title);
    html += "</header>\n<div id=\"viewhost\"></div>\n<noscript><p>The view needs "
            "JavaScript.</p></noscript>\n<script>\n";
    html += bundle; // build.mjs checked that it holds no </script and no <!--
    html += "\n</script>\n<script type=\"application/json\" id=\"view\">";
    html += data;
    html += "</script>\n<script>\n\"use strict\";\nwindow.mshconvView = window.MshconvViewer.open("
            "document.getElementById(\"viewhost\"), "
            "JSON.parse(document.getElementById(\"view\").textContent));\n</script>\n</body>\n"
            "</html>\n";
    return html;
}

} // namespace msh::conversion

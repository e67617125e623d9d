//! The project's rule book (`docs/rules/`, Markdown) as web pages: `/rulebook` is its index,
//! `/rulebook/{id}` (or `{id}.md`, as the pages link to each other) one rule set's page. The
//! in-app rules pages are the players' short version and link here.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd, html};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../docs/rules/"]
#[allow_missing = true]
struct Book;

/// `/rulebook`: the index.
pub async fn index() -> Response {
    page("README")
}

/// `/rulebook/{page}`.
pub async fn show(Path(name): Path<String>) -> Response {
    page(name.strip_suffix(".md").unwrap_or(&name))
}

fn page(name: &str) -> Response {
    let file = if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        Book::get(&format!("{name}.md"))
    } else {
        None
    };
    let Some(file) = file else {
        let mut pages: Vec<String> = Book::iter()
            .filter_map(|p| p.strip_suffix(".md").map(str::to_string))
            .filter(|p| p != "README")
            .collect();
        pages.sort();
        let text = format!(
            "# Not in the rule book\n\nThe rule book has no page `{}`. Its pages are the \
             [index](README.md) and {}.\n",
            name.replace('`', "'"),
            pages.iter().map(|p| format!("[{p}]({p}.md)")).collect::<Vec<_>>().join(", ")
        );
        return respond(StatusCode::NOT_FOUND, "Not in the rule book", &render(&text));
    };
    let text = String::from_utf8_lossy(&file.data);
    let title =
        text.lines().find_map(|l| l.strip_prefix("# ")).unwrap_or("Rule book").trim().to_string();
    respond(StatusCode::OK, &title, &render(&text))
}

fn respond(status: StatusCode, title: &str, body: &str) -> Response {
    let mut out = String::with_capacity(body.len() + 1024);
    out.push_str("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    out.push_str("<title>");
    html::push_html(&mut out, std::iter::once(Event::Text(CowStr::from(title))));
    out.push_str(" — doska rule book</title>");
    out.push_str(
        "<link rel=\"icon\" href=\"/favicon.svg\"><link rel=\"stylesheet\" href=\"/css/app.css\">",
    );
    out.push_str(
        "</head><body class=\"rulebook\"><header class=\"top\"><a class=\"brand\" href=\"/\">",
    );
    out.push_str("<span class=\"brand-mark\" aria-hidden=\"true\"></span>doska</a>");
    out.push_str(
        "<nav class=\"top-nav\"><a href=\"/\">Play</a><a href=\"/rulebook\">Rule book</a>",
    );
    out.push_str("<a href=\"/rules\">Rules for players</a></nav></header>");
    out.push_str("<main><article class=\"card book\">");
    out.push_str(body);
    out.push_str("</article></main></body></html>\n");
    (status, [(CONTENT_TYPE, "text/html; charset=utf-8"), (CACHE_CONTROL, "no-cache")], out)
        .into_response()
}

/// Markdown to HTML, with GitHub's tables and an `id` on every heading (GitHub's slugs, so the
/// pages' `page.md#section` links work here too).
fn render(text: &str) -> String {
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events: Vec<Event> = Vec::new();
    let mut heading: Option<(HeadingLevel, Vec<Event>)> = None;
    for ev in Parser::new_ext(text, opts) {
        match (&mut heading, ev) {
            (None, Event::Start(Tag::Heading { level, .. })) => heading = Some((level, Vec::new())),
            (Some((level, inner)), Event::End(TagEnd::Heading(_))) => {
                let words: String = inner
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                let n = *level as usize;
                events.push(Event::Html(CowStr::from(format!("<h{n} id=\"{}\">", slug(&words)))));
                events.append(inner);
                events.push(Event::Html(CowStr::from(format!("</h{n}>\n"))));
                heading = None;
            }
            (Some((_, inner)), ev) => inner.push(ev),
            (None, ev) => events.push(ev),
        }
    }
    let mut out = String::with_capacity(text.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    out
}

/// GitHub's heading anchor: lower case, spaces to hyphens, punctuation dropped.
fn slug(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_github_anchors_and_tables_render() {
        let html = render(
            "# Doska's rules\n\n## Parameters and custom rule sets\n\n|a|b|\n|-|-|\n|1|2|\n",
        );
        assert!(html.contains("<h1 id=\"doskas-rules\">Doska's rules</h1>"), "{html}");
        assert!(html.contains("<h2 id=\"parameters-and-custom-rule-sets\">"), "{html}");
        assert!(html.contains("<table>") && html.contains("<td>2</td>"), "{html}");
    }

    #[test]
    fn every_rule_set_has_a_page() {
        for id in doska_rules::Variant::ALL.iter().map(|v| v.id()).chain([
            "ugolki",
            "ugolki-brainking",
            "ugolki-brainking-10",
            "README",
        ]) {
            assert!(Book::get(&format!("{id}.md")).is_some(), "docs/rules/{id}.md");
        }
    }
}

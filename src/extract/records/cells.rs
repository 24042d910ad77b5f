//! Columns taken for records: a data table whose rows each hold a title
//! link, a department link and a document link also repeats its cells, and
//! the cells of the linked columns, many and each with a headline-length
//! link, can outscore the rows (a row holding several such links is
//! penalised as several records in `score`). Those cells are the parts of
//! one record, the row. A group of table cells whose rows each hold one
//! cell of two or more *columns* has its score divided by the cells each
//! row holds, as a group of sections is in `sections`, so the rows win.
//!
//! The same holds outside tables: a shop's ranking lays each item out as
//! a shop-name block, a product block and a reviews block, and those
//! blocks outnumber the items. A column is a link place (host, depth and
//! script; see `straggler`, the folder left open: each shop's products
//! sit in its own folder) that exactly one cell of most rows links to:
//! notices link to `/public-notices/2026/…` in the second cell and
//! departments to `/departments/…` in the third, row after row. A grid of
//! product cells laid out in rows is no such thing: its cells all link
//! alike (one place, several times a row).
//!
//! A row whose cells are classed as different cells, in the same order row
//! after row (a forum's icon, main, meta and latest cells), is such a row
//! too, whatever its links.
//!
//! Invariants: only scores change; one pass over each tried group's
//! records and their links.

use rustc_hash::FxHashMap as HashMap;

use crate::extract::dom::Document;

use super::kinds::{class_tokens, stable_class};
use super::straggler::{Shape, headline_href, shape_of};
use super::{Record, RecordGroup};

/// How many of the ranked groups are tried as columns.
const TRIED: usize = 3;
/// Share of the rows holding two or more cells in which a column's shape
/// must appear exactly once.
const COLUMN_ROWS: f64 = 2.0 / 3.0;

/// Divide the score of each of the best groups whose records are the
/// columns of table rows. True when some score changed.
pub(super) fn demote(doc: &Document, groups: &mut [RecordGroup]) -> bool {
    let mut changed = false;
    let kept = (0..groups.len()).filter(|&i| groups[i].dropped.is_none());
    for i in kept.take(TRIED).collect::<Vec<_>>() {
        if let Some(per_row) = cells_per_row(doc, &groups[i].records) {
            groups[i].score /= per_row;
            changed = true;
        }
    }
    changed
}

/// When `records` are the cells of rows, in columns (see the module
/// header): the mean number of them in each row holding two or more.
fn cells_per_row(doc: &Document, records: &[Record]) -> Option<f64> {
    let rows = rows_of(doc, records);
    let multi: Vec<&[Record]> = rows.into_iter().filter(|row| row.len() >= 2).collect();
    if multi.len() < 2 {
        return None;
    }
    let columns = column_shapes(doc, &multi);
    let needed = (multi.len() as f64 * COLUMN_ROWS).ceil() as usize;
    let enough = columns.values().filter(|&&rows| rows >= needed).count();
    let cells: usize = multi.iter().map(|row| row.len()).sum();
    (enough >= 2 || classed_columns(doc, &multi, needed)).then(|| cells as f64 / multi.len() as f64)
}

/// True when `needed` of the `rows` lay out their cells in one sequence of
/// classes naming two or more different cells: a forum's thread row is an
/// icon cell, a main cell, a meta cell and a latest cell
/// (`structItem-cell--icon`, `--main`, ...), row after row. A grid of
/// products in rows repeats one cell (its sale items fall anywhere).
fn classed_columns(doc: &Document, rows: &[&[Record]], needed: usize) -> bool {
    // A cell's class names that say what it is, its modifiers too
    // (`structItem-cell--main`); not where it falls (`first`, `span4`).
    let cell = |r: &Record| -> Vec<&str> {
        class_tokens(doc, r.start)
            .filter(|t| {
                stable_class(t) || (t.contains("--") && !t.bytes().any(|b| b.is_ascii_digit()))
            })
            .collect()
    };
    let layout = |row: &[Record]| -> Vec<Vec<&str>> { row.iter().map(cell).collect() };
    let mut counts: HashMap<Vec<Vec<&str>>, usize> = HashMap::default();
    for row in rows {
        *counts.entry(layout(row)).or_default() += 1;
    }
    counts.into_iter().any(|(cells, n)| {
        let mut kinds = cells.clone();
        kinds.sort_unstable();
        kinds.dedup();
        n >= needed && kinds.len() >= 2 && !kinds.iter().any(Vec::is_empty)
    })
}

/// The records split into runs under one parent (the group's records are
/// in document order, so a row's cells are consecutive).
fn rows_of<'r>(doc: &Document, records: &'r [Record]) -> Vec<&'r [Record]> {
    let parent = |r: &Record| doc.node(r.start).parent;
    let mut rows = Vec::new();
    let mut from = 0;
    for i in 1..=records.len() {
        if i == records.len() || parent(&records[i]) != parent(&records[from]) {
            rows.push(&records[from..i]);
            from = i;
        }
    }
    rows
}

/// For each link place (a [`Shape`] without its folder), the number of
/// `rows` in which exactly one cell has it as its headline link. Every
/// element child of a row counts, in the group or not: a column some of
/// whose cells mining left out is still one.
fn column_shapes(doc: &Document, rows: &[&[Record]]) -> HashMap<Shape, usize> {
    let mut columns: HashMap<Shape, usize> = HashMap::default();
    let mut in_row: HashMap<Shape, usize> = HashMap::default();
    for row in rows
        .iter()
        .filter_map(|cells| doc.node(cells[0].start).parent)
    {
        in_row.clear();
        let cells = doc.children(row).filter(|&c| doc.element(c).is_some());
        for cell in cells {
            let whole = Record {
                start: cell,
                end: doc.node(cell).end,
            };
            if let Some(shape) = headline_href(doc, &whole).and_then(shape_of) {
                *in_row.entry(shape.without_dir()).or_default() += 1;
            }
        }
        for (shape, n) in in_row.drain() {
            if n == 1 {
                *columns.entry(shape).or_default() += 1;
            }
        }
    }
    columns
}

#[cfg(test)]
mod tests {
    use crate::extract::records::detect_html;

    /// The winner's records' root tags and their count.
    fn winner(html: &str) -> (String, usize) {
        let (doc, det) = detect_html(html);
        let w = det.winner().expect("a winner");
        let tag = doc.tag(w.records[0].start).unwrap_or("").to_string();
        (tag, w.records.len())
    }

    fn notices_table() -> String {
        let depts = [
            "Planning &amp; Zoning",
            "Water &amp; Sewer Authority",
            "Community Development",
        ];
        let rows: String = (0..12)
            .map(|i| {
                let class = if i % 2 == 0 { "odd" } else { "even" };
                let dept = depts[i % 3];
                let slug = dept.to_lowercase().replace([' ', '&', ';'], "-");
                let second = if i % 3 == 0 {
                    format!("<br><span class=file><a href=\"/sites/default/files/2026-11/n{i}-exhibit.pdf\">Exhibit A – map (PDF)</a></span>")
                } else {
                    String::new()
                };
                format!(
                    "<tr class={class}>\
                     <td class=\"views-field views-field-date\"><time datetime=\"2026-11-{d:02}T12:00:00Z\">Nov {d}, 2026</time></td>\
                     <td class=\"views-field views-field-title\"><a href=\"/public-notices/2026/notice-{i}-of-a-hearing\">Notice of Public Hearing number {i} on the zoning map</a> <span class=badge>New</span></td>\
                     <td class=\"views-field views-field-department\"><a href=\"/departments/{slug}\">{dept}</a></td>\
                     <td class=\"views-field views-field-attachments\"><span class=file><a href=\"/sites/default/files/2026-11/n{i}.pdf\">Legal notice (PDF)</a></span> <span>(1073 KB)</span>{second}</td>\
                     </tr>",
                    d = 20 - i
                )
            })
            .collect();
        format!(
            "<html><body><header><nav><a href=/>Home</a> <a href=/government>Government</a> \
             <a href=/services>Services</a></nav></header><main><h1>Public Notices</h1>\
             <table class=views-table><thead><tr><th>Date</th><th>Notice</th><th>Department</th>\
             <th>Attachments</th></tr></thead><tbody>{rows}</tbody></table></main>\
             <footer><a href=/contact>Contact</a> <a href=/privacy>Privacy</a></footer></body></html>"
        )
    }

    #[test]
    fn the_rows_of_a_data_table_beat_its_linked_columns() {
        // A notices table (found on a municipal site): the title,
        // department and attachment cells made 2–3 records of each row,
        // undated, and outranked the rows.
        assert_eq!(winner(&notices_table()), ("tr".to_string(), 12));
    }

    /// Regression (a forum's "What's new"): each thread row is four
    /// cells classed for what they hold (`cell--icon`, `cell--main`,
    /// `cell--meta`, `cell--latest`), the main, meta and latest cells
    /// each linking; the cells beat the rows.
    #[test]
    fn rows_of_classed_cells_beat_their_cells() {
        let rows: String = (0..10)
            .map(|i| {
                format!(
                    "<div class='item item--thread'>\
                     <div class='cell cell--icon'><a href=/members/user{i}/>U{i}</a></div>\
                     <div class='cell cell--main'><a href=/threads/thread-title-number-{i}.{i}/>Which epoxy for a plywood hull number {i}?</a>\
                     <a href=/members/user{i}/>user{i}</a> <time datetime=2024-03-0{d}T10:00:00-0500>Mar {d}</time></div>\
                     <div class='cell cell--meta'><a href=/threads/thread-title-number-{i}.{i}/latest>{i} replies and 40 views</a></div>\
                     <div class='cell cell--latest'><a href=/threads/thread-title-number-{i}.{i}/post-9{i}>Today at 10:2{i} AM</a>\
                     <a href=/members/other{i}/>other{i}</a></div></div>",
                    d = 1 + i % 9
                )
            })
            .collect();
        let html = format!(
            "<html><body><nav><a href=/>Forums</a> <a href=/whats-new/>What's new</a></nav>\
             <main><h1>New posts</h1><div class=container>{rows}</div></main></body></html>"
        );
        assert_eq!(winner(&html), ("div".to_string(), 10));
        let (doc, det) = crate::extract::records::detect_html(&html);
        let w = det.winner().expect("the threads");
        let first = doc
            .element(w.records[0].start)
            .and_then(|e| e.attr("class"));
        assert_eq!(first, Some("item item--thread"));
    }

    /// Regression (a shop's daily ranking): each item is a block of a
    /// shop link, a product link and a reviews link; the 90 blocks beat
    /// the 30 items.
    #[test]
    fn the_items_of_a_ranking_beat_their_blocks() {
        let shops = [
            "yamanami-water",
            "kome-no-tanaka",
            "kitchen-ogawa",
            "tea-house-mori",
        ];
        let item = |i: usize| {
            let shop = shops[i % shops.len()];
            format!(
                "<div class=rnkRanking_item><div class=rnkRanking_dispRank>{n}位</div>\
                 <div class=rnkRanking_upperbox>\
                 <div class=rnkRanking_shop><a href=https://www.shop.example/{shop}/>{shop} 公式ショップ</a></div>\
                 <div class=rnkRanking_itemName><a href=https://item.shop.example/{shop}/p{i}x/>\
                 【送料無料】 商品名 番号{i} ミネラルウォーター 2L×9本 ケース まとめ買い</a></div>\
                 <div class=rnkRanking_review><a href=https://review.shop.example/item/1/{i}_100/1.1/>\
                 ({i},731件)</a></div></div><div class=price>3,980円</div></div>",
                n = i + 1
            )
        };
        let items: String = (0..12).map(item).collect();
        let html = format!(
            "<html><body><nav><a href=/>トップ</a> <a href=/daily>デイリー</a></nav>\
             <div id=rnkRankingMain>{items}</div><footer><a href=/help>ヘルプ</a></footer></body></html>"
        );
        let (tag, n) = winner(&html);
        assert_eq!(n, 12);
        assert_eq!(tag, "div");
    }

    #[test]
    fn a_product_grid_laid_out_as_a_table_keeps_its_cells() {
        let cell = |i: usize| {
            format!(
                "<td class=product><a href=/catalog/record/{n}><img src=/covers/{n}.jpg alt=\"\"></a>\
                 <a href=/catalog/record/{n}>The Book Title Number {i} of the Month</a>\
                 <p>By Author {i}</p><p>Book · Added Nov 18, 2026</p></td>",
                n = 40_000 + i
            )
        };
        let rows: String = (0..5)
            .map(|r| {
                format!(
                    "<tr>{}</tr>",
                    (0..4).map(|c| cell(r * 4 + c)).collect::<String>()
                )
            })
            .collect();
        let html = format!(
            "<html><body><nav><a href=/>Home</a> <a href=/catalog>Catalog</a></nav>\
             <h1>New arrivals</h1><table class=grid><tbody>{rows}</tbody></table>\
             <footer><a href=/hours>Hours</a></footer></body></html>"
        );
        assert_eq!(winner(&html), ("td".to_string(), 20));
    }
}

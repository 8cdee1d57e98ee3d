//! Smart paste for the address book (spec account §3, §5): splits a pasted "name phone
//! address" text into the fields of the address form.

use crate::domain::accounts::validators::{is_cjk_ideograph, is_mobile};
use crate::domain::geo::address::clean_address_text;
use serde::Serialize;

mod tables;
use tables::{ADDRESS_WORDS, HOUSE_MARKS, LABELS, LATIN_HOUSE_WORDS, PLACE_SUFFIXES, PROVINCES};

/// What `smart_read` recognised; the form fills these in for the user to confirm, so a
/// field it could not find is left empty rather than guessed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SmartRead {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub house_number: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Name,
    Phone,
    Address,
    House,
}

/// Reads a pasted contact in any order: "张三 13812345678 上海市黄浦区西藏中路236号 5楼501",
/// "收货人：李四，电话：139-1234-5678，地址：北京市…", one field a line, or English. The
/// mobile is found anywhere; labelled fields are taken as labelled; of the rest, a short name
/// becomes the name and everything else, in order, the address, whose trailing house part
/// ("5楼501", "3号楼2单元501室", "Room 501") is split off when recognisable.
pub fn smart_read(text: &str) -> SmartRead {
    let text = normalise(text);
    let (phone, mut rest) = take_mobile(&text);
    // A second number (a spare contact) is not address text either; the first one wins.
    while let (Some(_), shorter) = take_mobile(&rest) {
        rest = shorter;
    }
    let mut name = None;
    let mut house = None;
    let mut pool = Vec::new();
    for seg in segments(&rest) {
        match seg.field {
            Some(Field::Name) if name.is_none() => {
                let (n, extra) = split_labelled_name(&seg.text);
                name = Some(n);
                pool.extend(extra.map(|text| Segment {
                    text,
                    field: None,
                    after_address: false,
                }));
            }
            Some(Field::House) if house.is_none() => house = Some(seg.text),
            // A labelled phone that is not a mobile (a landline) and repeated labels are
            // dropped: they are not address text.
            Some(Field::Name | Field::House | Field::Phone) => {}
            Some(Field::Address) | None => pool.push(seg),
        }
    }
    if name.is_none() {
        name = take_name(&mut pool);
    }
    let parts: Vec<&str> = pool
        .iter()
        .map(|s| s.text.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    // English addresses are comma lists; Chinese ones read fine with a space between pieces.
    let joiner = if parts.iter().any(|p| p.chars().any(is_cjk_ideograph)) {
        " "
    } else {
        ", "
    };
    let mut address = parts.join(joiner);
    if house.is_none() {
        if let Some((base, h)) = split_house(&address) {
            address = base;
            house = Some(h);
        }
    }
    SmartRead {
        name: tidy(name.as_deref()),
        phone,
        address: tidy(Some(&address)),
        house_number: tidy(house.as_deref()),
    }
}

/// Full-width digits and plus (Chinese input methods) to ASCII; CR to LF.
fn normalise(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
            '＋' => '+',
            '\r' => '\n',
            c => c,
        })
        .collect()
}

/// Separators people type inside a number: spaces and dashes.
fn is_phone_filler(c: char) -> bool {
    matches!(c, ' ' | '\u{3000}' | '-' | '－' | '—')
}

/// Finds the first mainland mobile and replaces it with a line break, which also ends the
/// piece it sat in. Spaces or dashes are allowed only where people group digits (3-4-4) and
/// after a +86/0086 prefix, so neighbouring numbers ("501 13812345678") are not glued on.
fn take_mobile(text: &str) -> (Option<String>, String) {
    let chars: Vec<char> = text.chars().collect();
    for start in 0..chars.len() {
        let boundary = start == 0 || !chars[start - 1].is_ascii_digit();
        if !boundary || !(chars[start] == '+' || chars[start].is_ascii_digit()) {
            continue;
        }
        if let Some((end, digits)) = mobile_at(&chars, start) {
            let rest: String = chars[..start]
                .iter()
                .chain(std::iter::once(&'\n'))
                .chain(&chars[end..])
                .collect();
            return (Some(digits), rest);
        }
    }
    (None, text.to_owned())
}

fn mobile_at(chars: &[char], start: usize) -> Option<(usize, String)> {
    let at = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    let mut i = start;
    let prefixed = if at(i, "+86") {
        i += 3;
        true
    } else if at(i, "0086") {
        i += 4;
        true
    } else {
        false
    };
    let mut digits = String::new();
    while digits.len() < 11 {
        match chars.get(i) {
            Some(c) if c.is_ascii_digit() => {
                digits.push(*c);
                i += 1;
            }
            Some(&c) if is_phone_filler(c) => {
                let group_gap = matches!(digits.len(), 3 | 7) || (prefixed && digits.is_empty());
                let run = chars[i..]
                    .iter()
                    .take_while(|&&c| is_phone_filler(c))
                    .count();
                let digit_follows = chars.get(i + run).is_some_and(char::is_ascii_digit);
                if !(group_gap && run <= 2 && digit_follows) {
                    return None;
                }
                i += run;
            }
            _ => return None,
        }
    }
    let ends_clean = !chars.get(i).is_some_and(char::is_ascii_digit);
    (ends_clean && is_mobile(&digits)).then_some((i, digits))
}

struct Segment {
    text: String,
    field: Option<Field>,
    /// An unlabelled piece later on the line of a labelled address ("地址：A, B"): part of
    /// that address unless it is plainly a Chinese name.
    after_address: bool,
}

/// Lines, then pieces between commas, semicolons and 【】 brackets, then pieces starting at a
/// "label:". A label left without a value ("【收货人】张三", "收货人：，张三") applies to the
/// next unlabelled piece on its line; a phone label never does, its number being taken already.
fn segments(text: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let mut in_address = false;
        let mut pending = None;
        for piece in line.split([',', '，', ';', '；', '\t', '|', '【', '】']) {
            for part in split_at_labels(piece) {
                let (label, value) = strip_label(part);
                let value = trim_value(value);
                let field = match label {
                    Some(f) => {
                        in_address = f == Field::Address;
                        pending = (value.is_empty() && f != Field::Phone).then_some(f);
                        Some(f)
                    }
                    None => pending.take(),
                };
                if value.is_empty() {
                    continue;
                }
                out.push(Segment {
                    text: value.to_owned(),
                    field,
                    after_address: field.is_none() && in_address,
                });
            }
        }
    }
    out
}

/// The longest label at the start of `s`: (field, byte length, whether it is ASCII).
fn label_at(s: &str) -> Option<(Field, usize, bool)> {
    LABELS
        .iter()
        .filter(|(label, _)| {
            let ascii = label.is_ascii();
            s.get(..label.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(label))
                // "Addr" must not match the start of "Address"-like words it is not.
                && !(ascii && s[label.len()..].starts_with(|c: char| c.is_ascii_alphabetic()))
        })
        .max_by_key(|(label, _)| label.len())
        .map(|(label, field)| (*field, label.len(), label.is_ascii()))
}

/// Byte offset just past a colon that follows optional spaces.
fn colon_after(s: &str) -> Option<usize> {
    let body = s.trim_start();
    let skipped = s.len() - body.len();
    [':', '：']
        .into_iter()
        .find(|&c| body.starts_with(c))
        .map(|c| skipped + c.len_utf8())
}

fn split_at_labels(piece: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    let mut i = 0;
    while i < piece.len() {
        let rest = &piece[i..];
        if let Some((_, len, _)) = label_at(rest) {
            if colon_after(&rest[len..]).is_some() {
                let word_start = !piece[..i].ends_with(|c: char| c.is_ascii_alphabetic());
                if i > 0 && word_start {
                    cuts.push(i);
                }
                i += len;
                continue;
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    cuts.push(piece.len());
    cuts.windows(2).map(|w| &piece[w[0]..w[1]]).collect()
}

fn strip_label(part: &str) -> (Option<Field>, &str) {
    let t = part.trim();
    if let Some((field, len, ascii)) = label_at(t) {
        let rest = &t[len..];
        if let Some(after) = colon_after(rest) {
            return (Some(field), &rest[after..]);
        }
        if !ascii {
            return (Some(field), rest);
        }
    }
    (None, t)
}

fn trim_value(s: &str) -> &str {
    s.trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, ':' | '：' | ',' | '，' | '。' | ';' | '；' | '、' | '|')
    })
}

/// "姓名：张三 上海市…" (no label before the address): a Chinese labelled name is one token,
/// and the rest goes back to the pool. A Latin name keeps its spaces.
fn split_labelled_name(text: &str) -> (String, Option<String>) {
    match text.split_once(char::is_whitespace) {
        Some((first, rest)) if text.chars().any(is_cjk_ideograph) && is_cjk_name(first) => {
            (first.to_owned(), Some(rest.trim().to_owned()))
        }
        _ => (text.to_owned(), None),
    }
}

/// The first unlabelled piece that is a name as a whole; failing that, a name as the first
/// or last word of a piece ("李四 上海市…", "…501室 李四"). Beside a Chinese address a single
/// Latin word ("Tom") is a name too, since it cannot be part of that address.
fn take_name(pool: &mut [Segment]) -> Option<String> {
    let chinese = pool.iter().any(|s| s.text.chars().any(is_cjk_ideograph));
    let min_words = if chinese { 1 } else { 2 };
    let whole = pool.iter_mut().find(|s| {
        s.field.is_none()
            && !s.text.is_empty()
            && (is_cjk_name(&s.text) || (!s.after_address && is_latin_name(&s.text, min_words)))
    });
    if let Some(seg) = whole {
        return Some(std::mem::take(&mut seg.text));
    }
    // A Latin word counts only when the rest of its piece is Chinese ("Tom 上海市…").
    let word_is_name = |w: &str, rest: &str| {
        is_cjk_name(w) || (is_latin_name(w, 1) && rest.chars().any(is_cjk_ideograph))
    };
    for seg in pool
        .iter_mut()
        .filter(|s| s.field.is_none() && !s.after_address)
    {
        let text = seg.text.clone();
        if let Some((first, rest)) = text.split_once(char::is_whitespace) {
            if word_is_name(first, rest) {
                seg.text = rest.trim().to_owned();
                return Some(first.to_owned());
            }
        }
        if let Some((rest, last)) = text.rsplit_once(char::is_whitespace) {
            if word_is_name(last, rest) {
                seg.text = rest.trim().to_owned();
                return Some(last.to_owned());
            }
        }
    }
    None
}

/// 2–4 Chinese characters ("张三", "欧阳娜娜", "王先生") that do not look like a place.
fn is_cjk_name(t: &str) -> bool {
    (2..=4).contains(&t.chars().count())
        && t.chars().all(is_cjk_ideograph)
        && !t.ends_with(PLACE_SUFFIXES)
        && !PROVINCES.iter().any(|p| t.starts_with(p))
}

/// A Latin name of `min_words` to 3 words. Among English address pieces it takes 2 ("John
/// Smith"): a single word is too often a district or city ("Pudong") to guess. All-capital
/// words ("SOHO", "IFC") are brands and buildings, not names.
fn is_latin_name(t: &str, min_words: usize) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    (min_words..=3).contains(&words.len())
        && words.iter().all(|w| {
            w.starts_with(|c: char| c.is_ascii_alphabetic())
                && w.chars()
                    .all(|c| c.is_ascii_alphabetic() || c == '.' || c == '-')
                && !(w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase()))
                && !ADDRESS_WORDS.contains(&w.trim_end_matches('.').to_ascii_lowercase().as_str())
        })
}

/// Splits a trailing (or, for English comma lists, leading) house part off an address.
fn split_house(address: &str) -> Option<(String, String)> {
    // "Room 501, 88 Century Avenue, Pudong" or "88 Century Avenue, Pudong, Room 501".
    let parts: Vec<&str> = address.split([',', '，']).map(str::trim).collect();
    if parts.len() >= 2 {
        if let [first, rest @ ..] = parts.as_slice() {
            if is_latin_house(first) {
                return Some((rest.join(", "), (*first).to_owned()));
            }
        }
        if let [rest @ .., last] = parts.as_slice() {
            if is_latin_house(last) {
                return Some((rest.join(", "), (*last).to_owned()));
            }
        }
    }
    // "…236号 5楼501", "…236号 5楼 501", "… Room 501": the last one or two words.
    let words: Vec<&str> = address.split_whitespace().collect();
    for k in [2, 1] {
        if words.len() > k {
            let tail = words[words.len() - k..].join(" ");
            let compact: String = tail.split_whitespace().collect();
            if is_latin_house(&tail) || is_cjk_house(&compact) {
                return Some((words[..words.len() - k].join(" "), tail));
            }
        }
    }
    // "…19号3号楼2单元501室": the longest house-shaped suffix, not starting inside a number.
    let chars: Vec<char> = address.chars().collect();
    (1..chars.len())
        .filter(|&i| {
            let prev = chars[i - 1];
            !prev.is_ascii_alphanumeric() && !is_cjk_numeral(prev) && !"路街道巷弄".contains(prev)
        })
        .find(|&i| is_cjk_house(&chars[i..].iter().collect::<String>()))
        .map(|i| {
            let base: String = chars[..i].iter().collect();
            let house: String = chars[i..].iter().collect();
            (base.trim().to_owned(), house)
        })
        .filter(|(base, _)| !base.is_empty())
}

/// "Room 501", "Flat 5B", "Apt. No. 12", "Floor 5 Room 501", "#501".
fn is_latin_house(t: &str) -> bool {
    let words: Vec<&str> = t.split_whitespace().collect();
    let value_ok = |v: &str| {
        !v.is_empty()
            && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            && (v.chars().any(|c| c.is_ascii_digit()) || v.len() <= 2)
    };
    let mut i = 0;
    while i < words.len() {
        let word = words[i].trim_end_matches('.').to_ascii_lowercase();
        if let Some(v) = words[i].strip_prefix('#') {
            if !value_ok(v) {
                return false;
            }
            i += 1;
            continue;
        }
        if !LATIN_HOUSE_WORDS.contains(&word.as_str()) {
            return false;
        }
        i += 1;
        if words
            .get(i)
            .is_some_and(|w| w.trim_end_matches('.').eq_ignore_ascii_case("no"))
        {
            i += 1;
        }
        match words.get(i) {
            Some(v) if value_ok(v.trim_start_matches('#')) => i += 1,
            _ => return false,
        }
    }
    !words.is_empty()
}

fn is_cjk_numeral(c: char) -> bool {
    "零〇一二三四五六七八九十百两".contains(c)
}

/// The Chinese house-part grammar: units of (number, mark) such as "3号楼", "2单元",
/// "501室", "A座", "5F", optionally ending in a bare room number ("5楼501"); or a dashed
/// building-unit-room form ("2-501", "3-2-501"). Numbers are digits, Chinese numerals, or
/// one or two letters with optional digits ("B1").
fn is_cjk_house(s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut units = 0;
    while i < chars.len() {
        let num_end = number_end(&chars, i);
        if num_end == i {
            return false;
        }
        let rest: String = chars[num_end..].iter().collect();
        match HOUSE_MARKS.iter().find(|m| rest.starts_with(**m)) {
            Some(&"号") if units == 0 => return false,
            Some(mark) => {
                units += 1;
                i = num_end + mark.chars().count();
            }
            None if num_end == chars.len() => return units > 0,
            None => return units == 0 && is_dashed_house(&chars[i..]),
        }
    }
    units > 0
}

fn number_end(chars: &[char], start: usize) -> usize {
    let mut i = start;
    if chars.get(i).is_some_and(|&c| is_cjk_numeral(c)) {
        while chars.get(i).is_some_and(|&c| is_cjk_numeral(c)) {
            i += 1;
        }
        return i;
    }
    let letters = chars[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic() && !matches!(c, 'F' | 'f'))
        .count();
    if letters > 2 {
        return start;
    }
    i += letters;
    while chars.get(i).is_some_and(char::is_ascii_digit) {
        i += 1;
    }
    i
}

/// "2-501" or "3-2-501": two or three dash-joined numbers and nothing after.
fn is_dashed_house(chars: &[char]) -> bool {
    let text: String = chars.iter().collect();
    let parts: Vec<&str> = text.split('-').collect();
    (2..=3).contains(&parts.len())
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Final clean-up of a read field: no storage separators, no edge punctuation.
fn tidy(value: Option<&str>) -> Option<String> {
    value
        .map(|v| trim_value(&clean_address_text(v)).to_owned())
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(
        name: Option<&str>,
        phone: Option<&str>,
        address: Option<&str>,
        house: Option<&str>,
    ) -> SmartRead {
        SmartRead {
            name: name.map(Into::into),
            phone: phone.map(Into::into),
            address: address.map(Into::into),
            house_number: house.map(Into::into),
        }
    }

    #[test]
    fn smart_read_table() {
        let cases = [
            (
                "张三 13812345678 上海市黄浦区西藏中路236号 5楼501",
                read(Some("张三"), Some("13812345678"), Some("上海市黄浦区西藏中路236号"), Some("5楼501")),
            ),
            (
                "收货人：李四，电话：139-1234-5678，地址：北京市朝阳区三里屯路19号",
                read(Some("李四"), Some("13912345678"), Some("北京市朝阳区三里屯路19号"), None),
            ),
            // One field a line, in any order.
            (
                "上海市浦东新区世纪大道88号金茂大厦1205室\n13700001111\n王五",
                read(Some("王五"), Some("13700001111"), Some("上海市浦东新区世纪大道88号金茂大厦"), Some("1205室")),
            ),
            (
                "上海市黄浦区西藏中路236号\r\n5楼501\r\n张三\r\n138 1234 5678",
                read(Some("张三"), Some("13812345678"), Some("上海市黄浦区西藏中路236号"), Some("5楼501")),
            ),
            (
                "北京市朝阳区三里屯路19号3号楼2单元501室 李四 13912345678",
                read(Some("李四"), Some("13912345678"), Some("北京市朝阳区三里屯路19号"), Some("3号楼2单元501室")),
            ),
            (
                "收货人:赵六 手机号码:13712345678 详细地址:广州市天河区天河路385号 门牌号:A座1201",
                read(Some("赵六"), Some("13712345678"), Some("广州市天河区天河路385号"), Some("A座1201")),
            ),
            (
                "Name: John Smith\nPhone: +86 138 1234 5678\nAddress: Room 501, 88 Century Avenue, Pudong, Shanghai",
                read(Some("John Smith"), Some("13812345678"), Some("88 Century Avenue, Pudong, Shanghai"), Some("Room 501")),
            ),
            (
                "John Smith, 13812345678, 88 Century Avenue, Pudong, Shanghai, Room 501",
                read(Some("John Smith"), Some("13812345678"), Some("88 Century Avenue, Pudong, Shanghai"), Some("Room 501")),
            ),
            (
                "Li Lei 13512345678 Flat 5B, 12 Hengshan Road, Xuhui, Shanghai",
                read(Some("Li Lei"), Some("13512345678"), Some("12 Hengshan Road, Xuhui, Shanghai"), Some("Flat 5B")),
            ),
            (
                "+86 139 1234 5678 王小明 深圳市南山区科技园南区高新南一道 6栋1201",
                read(Some("王小明"), Some("13912345678"), Some("深圳市南山区科技园南区高新南一道"), Some("6栋1201")),
            ),
            (
                "0086-13812345678 陈一 杭州市西湖区文三路90号 2-501",
                read(Some("陈一"), Some("13812345678"), Some("杭州市西湖区文三路90号"), Some("2-501")),
            ),
            // No phone at all.
            (
                "王五 北京市海淀区中关村大街1号",
                read(Some("王五"), None, Some("北京市海淀区中关村大街1号"), None),
            ),
            // Glued together without spaces.
            (
                "李四13812345678上海市黄浦区南京东路100号",
                read(Some("李四"), Some("13812345678"), Some("上海市黄浦区南京东路100号"), None),
            ),
            // A name after a labelled address; the address keeps its comma-less pieces.
            (
                "地址：成都市武侯区人民南路四段1号，刘备",
                read(Some("刘备"), None, Some("成都市武侯区人民南路四段1号"), None),
            ),
            // A landline is not a mobile, and a labelled phone is never address text.
            (
                "联系人：张三，电话：021-63212345",
                read(Some("张三"), None, None, None),
            ),
            // A province on its own is not a name; the real name is the last word.
            (
                "北京 朝阳区建国路88号 SOHO现代城 李雷 13512345678",
                read(Some("李雷"), Some("13512345678"), Some("北京 朝阳区建国路88号 SOHO现代城"), None),
            ),
            // Four-character name; separators cleaned out of the address.
            (
                "上海市徐汇区漕溪北路88号圣爱大厦、 欧阳娜娜 18912345678",
                read(Some("欧阳娜娜"), Some("18912345678"), Some("上海市徐汇区漕溪北路88号圣爱大厦"), None),
            ),
            // Lowercase English labels mid-line, a Chinese address, a floor as house part.
            (
                "name: 张三 phone: 13812345678 address: 上海市静安区南京西路1266号 恒隆广场 38楼",
                read(Some("张三"), Some("13812345678"), Some("上海市静安区南京西路1266号 恒隆广场"), Some("38楼")),
            ),
            // A labelled single-word name; the apostrophe separator is cleaned away.
            (
                "Phone: 13812345678\nName: Mary\nAddress: 1 Nanjing West Road, Jing'an, Shanghai",
                read(Some("Mary"), Some("13812345678"), Some("1 Nanjing West Road, Jingan, Shanghai"), None),
            ),
            // Full-width digits from a Chinese keyboard.
            (
                "张三 １３８１２３４５６７８ 上海市黄浦区人民大道200号",
                read(Some("张三"), Some("13812345678"), Some("上海市黄浦区人民大道200号"), None),
            ),
            // A room number right before the phone is not glued onto it.
            (
                "杭州市西湖区文三路90号 501 13812345678",
                read(None, Some("13812345678"), Some("杭州市西湖区文三路90号 501"), None),
            ),
            // 12x numbers are not issued, and a 10-digit run is no mobile.
            (
                "张三 12812345678",
                read(Some("张三"), None, Some("12812345678"), None),
            ),
            ("13812345678", read(None, Some("13812345678"), None, None)),
            // Bracketed labels, the value after the closing bracket.
            (
                "【收货人】张三【电话】13812345678【地址】上海市黄浦区",
                read(Some("张三"), Some("13812345678"), Some("上海市黄浦区"), None),
            ),
            // Chinese labels without colons at line starts.
            (
                "收货人 张三\n手机 13812345678\n所在地区 上海市黄浦区\n详细地址 西藏中路236号5楼501",
                read(Some("张三"), Some("13812345678"), Some("上海市黄浦区 西藏中路236号"), Some("5楼501")),
            ),
            // A Shanghai lane address: the lane house number stays with the address.
            (
                "张三 138-1234-5678 上海市闵行区莘庄镇莘松路1234弄5号502室",
                read(Some("张三"), Some("13812345678"), Some("上海市闵行区莘庄镇莘松路1234弄5号"), Some("502室")),
            ),
            // A one-word English name beside a Chinese address.
            (
                "Tom\n13812345678\n上海市黄浦区西藏中路236号 Room 501",
                read(Some("Tom"), Some("13812345678"), Some("上海市黄浦区西藏中路236号"), Some("Room 501")),
            ),
            // A second mobile is dropped, not read as address.
            (
                "张三 13812345678 13912345678 上海市黄浦区",
                read(Some("张三"), Some("13812345678"), Some("上海市黄浦区"), None),
            ),
            ("", read(None, None, None, None)),
            (" \n， \n", read(None, None, None, None)),
        ];
        for (text, want) in cases {
            assert_eq!(smart_read(text), want, "{text:?}");
        }
    }

    #[test]
    fn cjk_house_grammar() {
        let cases = [
            ("5楼501", true),
            ("3号楼2单元501室", true),
            ("1205室", true),
            ("A座1201", true),
            ("6栋1201", true),
            ("38楼", true),
            ("5F", true),
            ("十五楼", true),
            ("2-501", true),
            ("3-2-501", true),
            ("19号", false),
            ("19号3号楼", false), // opens with a street number
            ("501", false),
            ("三里屯路19号", false),
            ("", false),
        ];
        for (s, want) in cases {
            assert_eq!(is_cjk_house(s), want, "{s:?}");
        }
    }
}

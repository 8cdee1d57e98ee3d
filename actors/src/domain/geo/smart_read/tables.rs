//! The words smart paste knows: field labels, what makes a word a place or an English
//! address, and the marks of a house part. Data tables; the reading is in `smart_read.rs`.

use super::Field;

/// Labels people put before fields. ASCII ones match case-insensitively and only before a
/// colon ("Name:"), since "name" or "address" also occur inside English text; Chinese ones
/// also match without a colon at the start of a piece ("收货人 张三").
pub(super) const LABELS: [(&str, Field); 34] = [
    ("收货人姓名", Field::Name),
    ("收件人姓名", Field::Name),
    ("收货人", Field::Name),
    ("收件人", Field::Name),
    ("联系人", Field::Name),
    ("姓名", Field::Name),
    ("名字", Field::Name),
    ("name", Field::Name),
    ("recipient", Field::Name),
    ("receiver", Field::Name),
    ("consignee", Field::Name),
    ("contact", Field::Name),
    ("手机号码", Field::Phone),
    ("联系电话", Field::Phone),
    ("电话号码", Field::Phone),
    ("联系方式", Field::Phone),
    ("手机号", Field::Phone),
    ("电话", Field::Phone),
    ("手机", Field::Phone),
    ("phone", Field::Phone),
    ("mobile", Field::Phone),
    ("telephone", Field::Phone),
    ("tel", Field::Phone),
    ("收货地址", Field::Address),
    ("详细地址", Field::Address),
    ("所在地区", Field::Address),
    ("地址", Field::Address),
    ("address", Field::Address),
    ("addr", Field::Address),
    ("门牌号", Field::House),
    ("门牌", Field::House),
    ("house number", Field::House),
    ("house no", Field::House),
    ("room", Field::House),
];

/// Last characters that make a short Chinese word a place, not a person.
pub(super) const PLACE_SUFFIXES: [char; 24] = [
    '省', '市', '区', '县', '镇', '乡', '村', '路', '街', '道', '巷', '弄', '号', '楼', '栋', '幢',
    '室', '层', '苑', '园', '厦', '场', '院', '店',
];

/// Province-level short names: "北京" or "上海黄浦" alone on a line is not a person.
pub(super) const PROVINCES: [&str; 34] = [
    "北京",
    "天津",
    "上海",
    "重庆",
    "河北",
    "山西",
    "辽宁",
    "吉林",
    "黑龙江",
    "江苏",
    "浙江",
    "安徽",
    "福建",
    "江西",
    "山东",
    "河南",
    "湖北",
    "湖南",
    "广东",
    "海南",
    "四川",
    "贵州",
    "云南",
    "陕西",
    "甘肃",
    "青海",
    "台湾",
    "内蒙古",
    "广西",
    "西藏",
    "宁夏",
    "新疆",
    "香港",
    "澳门",
];

/// Words that mark English text as an address.
pub(super) const ADDRESS_WORDS: [&str; 40] = [
    "road",
    "rd",
    "street",
    "st",
    "avenue",
    "ave",
    "lane",
    "ln",
    "alley",
    "room",
    "rm",
    "floor",
    "fl",
    "flat",
    "apt",
    "apartment",
    "unit",
    "suite",
    "building",
    "bldg",
    "tower",
    "block",
    "district",
    "city",
    "province",
    "county",
    "town",
    "village",
    "park",
    "plaza",
    "square",
    "center",
    "centre",
    "mall",
    "garden",
    "mansion",
    "boulevard",
    "highway",
    "china",
    "no",
];

pub(super) const LATIN_HOUSE_WORDS: [&str; 11] = [
    "room",
    "rm",
    "flat",
    "apt",
    "apartment",
    "unit",
    "suite",
    "ste",
    "floor",
    "fl",
    "block",
];

/// Building, unit, floor and room marks, longest first. "号" alone is weak: "19号" right
/// after a street is the street number, so it may not open a house part.
pub(super) const HOUSE_MARKS: [&str; 13] = [
    "号楼", "号房", "单元", "栋", "幢", "座", "楼", "层", "室", "房", "号", "F", "f",
];

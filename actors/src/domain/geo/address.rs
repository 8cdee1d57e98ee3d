//! Address book input (spec account §3, §5; ordering §3, §5): the typed fields of a new
//! address and the rule collecting every field error at once (the form shows them all). The
//! smart-paste reader that splits a pasted "name phone address" text into fields is in
//! [`crate::domain::geo::smart_read`].

use crate::domain::accounts::phone::{Phone, PhoneError};
use crate::domain::accounts::validators::{display_text, ILLEGAL_CHARS};
use crate::domain::catalogue::LngLat;
use crate::domain::geo::{is_illegal_latitude, parse_query_point};
use crate::domain::lang::Lang;
use serde::{Deserialize, Serialize};

pub const CONTACT_NAME_MAX_CHARS: usize = 16;
pub const HOUSE_NUMBER_MAX_CHARS: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressError {
    ContactNameEmpty,
    ContactNameIllegal,
    ContactNameTooLong,
    /// Control, bidi or zero-width characters: what the rider reads would not be what was typed.
    ContactNameInvisible,
    Phone(PhoneError),
    BaseAddressEmpty,
    BaseAddressIllegal,
    HouseNumberEmpty,
    HouseNumberIllegal,
    HouseNumberTooLong,
    HouseNumberInvisible,
    BaseAddressInvisible,
    IllegalLocation,
    DefaultNotDeletable,
    SelectedNotDeletable,
    SexInvalid,
    TagInvalid,
}

impl AddressError {
    pub fn message(&self, lang: Lang) -> String {
        use AddressError::*;
        let (zh, en) = match self {
            AddressError::Phone(e) => return e.message(lang),
            ContactNameEmpty => ("联系人不能为空", "Contact name cannot be empty"),
            SexInvalid => ("称呼只能是先生或女士", "The title must be Mr or Ms"),
            TagInvalid => (
                "标签只能是家、公司或学校",
                "The tag must be home, company or school",
            ),
            ContactNameIllegal => (
                "联系人不能包含特殊字符",
                "Contact name cannot contain special characters",
            ),
            ContactNameTooLong => (
                "联系人不能超过16个字符",
                "Contact name cannot exceed 16 characters",
            ),
            ContactNameInvisible => (
                "联系人不能包含控制字符或不可见字符",
                "Contact name cannot contain control or invisible characters",
            ),
            BaseAddressInvisible => (
                "收货地址不能包含控制字符或不可见字符",
                "Delivery address cannot contain control or invisible characters",
            ),
            HouseNumberInvisible => (
                "门牌号不能包含控制字符或不可见字符",
                "House number cannot contain control or invisible characters",
            ),
            BaseAddressEmpty => ("收货地址不能为空", "Delivery address cannot be empty"),
            BaseAddressIllegal => (
                "收货地址不能包含、|'等字符",
                "Delivery address cannot contain 、 | '",
            ),
            HouseNumberEmpty => ("门牌号不能为空", "House number cannot be empty"),
            HouseNumberIllegal => (
                "门牌号不能包含、|'等字符",
                "House number cannot contain 、 | '",
            ),
            HouseNumberTooLong => (
                "门牌号不能超过100个字符",
                "House number cannot exceed 100 characters",
            ),
            IllegalLocation => (
                "地址不合法，请重新选择地址",
                "The address is not valid, please choose it again",
            ),
            DefaultNotDeletable => ("默认地址不能删除", "The default address cannot be deleted"),
            SelectedNotDeletable => (
                "当前选中的地址不能删除",
                "The selected address cannot be deleted",
            ),
        };
        match lang {
            Lang::Zh => zh.into(),
            Lang::En => en.into(),
        }
    }

    /// The request field the error belongs to, so the form can show it under that input.
    pub fn field(&self) -> &'static str {
        use AddressError::*;
        match self {
            ContactNameEmpty | ContactNameIllegal | ContactNameTooLong | ContactNameInvisible => {
                "name"
            }
            AddressError::Phone(_) => "phone",
            BaseAddressEmpty | BaseAddressIllegal | BaseAddressInvisible => "baseAddress",
            HouseNumberEmpty | HouseNumberIllegal | HouseNumberTooLong | HouseNumberInvisible => {
                "houseNumber"
            }
            IllegalLocation => "lat",
            DefaultNotDeletable | SelectedNotDeletable => "id",
            SexInvalid => "sex",
            TagInvalid => "tag",
        }
    }
}

/// The default address and the one the current order uses cannot be deleted (spec §5).
pub fn check_deletable(is_default: bool, is_selected: bool) -> Result<(), AddressError> {
    if is_default {
        Err(AddressError::DefaultNotDeletable)
    } else if is_selected {
        Err(AddressError::SelectedNotDeletable)
    } else {
        Ok(())
    }
}

/// Strips the separators the old storage used (spec ordering §5). Only those characters go;
/// spacing is left as it was.
pub fn clean_address_text(text: &str) -> String {
    text.chars()
        .filter(|c| !ILLEGAL_CHARS.contains(c))
        .collect()
}

/// An address saved without a usable fix must be re-picked on the map (spec §3).
pub fn is_illegal(lat: Option<&str>) -> bool {
    is_illegal_latitude(lat)
}

/// The recipient: letters of any script (Chinese characters included), ASCII digits, inner
/// spaces, and the dots and hyphen that names use ("阿沛·阿旺晋美", "J. Smith",
/// "Mary-Jane"). Everything else, emoji and the 、 | ' separators included, is "special".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ContactName(String);

impl ContactName {
    pub fn parse(raw: &str) -> Result<ContactName, AddressError> {
        let name = raw.trim();
        let allowed = |c: char| {
            c.is_alphabetic() || c.is_ascii_digit() || matches!(c, ' ' | '·' | '・' | '.' | '-')
        };
        if name.is_empty() {
            Err(AddressError::ContactNameEmpty)
        } else if display_text(name).is_err() {
            Err(AddressError::ContactNameInvisible)
        } else if !name.chars().all(allowed) {
            Err(AddressError::ContactNameIllegal)
        } else if name.chars().count() > CONTACT_NAME_MAX_CHARS {
            Err(AddressError::ContactNameTooLong)
        } else {
            Ok(ContactName(name.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The house number or detailed address ("5楼501"): required, at most 100 characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct HouseNumber(String);

impl HouseNumber {
    pub fn parse(raw: &str) -> Result<HouseNumber, AddressError> {
        let text = raw.trim();
        if text.is_empty() {
            Err(AddressError::HouseNumberEmpty)
        } else if display_text(text).is_err() {
            Err(AddressError::HouseNumberInvisible)
        } else if text.contains(ILLEGAL_CHARS) {
            Err(AddressError::HouseNumberIllegal)
        } else if text.chars().count() > HOUSE_NUMBER_MAX_CHARS {
            Err(AddressError::HouseNumberTooLong)
        } else {
            Ok(HouseNumber(text.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The map-picked address line. The spec sets no length limit, so none is invented here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct BaseAddress(String);

impl BaseAddress {
    pub fn parse(raw: &str) -> Result<BaseAddress, AddressError> {
        let text = raw.trim();
        if text.is_empty() {
            Err(AddressError::BaseAddressEmpty)
        } else if display_text(text).is_err() {
            Err(AddressError::BaseAddressInvisible)
        } else if text.contains(ILLEGAL_CHARS) {
            Err(AddressError::BaseAddressIllegal)
        } else {
            Ok(BaseAddress(text.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The picked point. The text is kept as the client sent it (trimmed), since that is what
/// the legality rule measures and what the old records hold; the parsed point rides along.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AddressPoint {
    lat: String,
    lng: String,
    #[serde(skip)]
    point: LngLat,
}

impl AddressPoint {
    /// Illegal when the latitude is missing or 5 characters or fewer (spec §3), and also when
    /// the pair is not a real point (not numbers, out of range, a placeholder such as 0,0):
    /// such a point cannot be placed on the map either, and the user's fix is the same.
    pub fn parse(lat: Option<&str>, lng: Option<&str>) -> Result<AddressPoint, AddressError> {
        if is_illegal_latitude(lat) {
            return Err(AddressError::IllegalLocation);
        }
        let point = parse_query_point(lat, lng).map_err(|_| AddressError::IllegalLocation)?;
        Ok(AddressPoint {
            lat: lat.unwrap_or_default().trim().to_owned(),
            lng: lng.unwrap_or_default().trim().to_owned(),
            point,
        })
    }

    pub fn lat(&self) -> &str {
        &self.lat
    }

    pub fn lng(&self) -> &str {
        &self.lng
    }

    pub fn point(&self) -> LngLat {
        self.point
    }
}

/// The address form as posted; every field optional so a missing one becomes a field error
/// rather than a deserialisation failure.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RawAddress {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub base_address: Option<String>,
    pub house_number: Option<String>,
    pub lat: Option<String>,
    pub lng: Option<String>,
    pub city_name: Option<String>,
    pub province_name: Option<String>,
    pub county_name: Option<String>,
    pub is_default: Option<bool>,
    /// `male` (先生) or `female` (女士); empty or absent: not said.
    pub sex: Option<String>,
    /// `home` (家), `company` (公司) or `school` (学校); empty or absent: none.
    pub tag: Option<String>,
}

/// How the rider greets the recipient: 先生 (Mr) or 女士 (Ms).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Sex {
    Male,
    Female,
}

impl Sex {
    /// None for empty or absent (not said); an unknown value is an error.
    pub fn parse(raw: Option<&str>) -> Result<Option<Sex>, AddressError> {
        match raw.map(str::trim).unwrap_or("") {
            "" => Ok(None),
            "male" => Ok(Some(Sex::Male)),
            "female" => Ok(Some(Sex::Female)),
            _ => Err(AddressError::SexInvalid),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Sex::Male => "male",
            Sex::Female => "female",
        }
    }
}

/// What the place is: 家 (home), 公司 (company) or 学校 (school).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AddressTag {
    Home,
    Company,
    School,
}

impl AddressTag {
    /// None for empty or absent (no tag); an unknown value is an error.
    pub fn parse(raw: Option<&str>) -> Result<Option<AddressTag>, AddressError> {
        match raw.map(str::trim).unwrap_or("") {
            "" => Ok(None),
            "home" => Ok(Some(AddressTag::Home)),
            "company" => Ok(Some(AddressTag::Company)),
            "school" => Ok(Some(AddressTag::School)),
            _ => Err(AddressError::TagInvalid),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            AddressTag::Home => "home",
            AddressTag::Company => "company",
            AddressTag::School => "school",
        }
    }
}

/// A checked address, ready to store. Every field is a parsed type, so holding one proves
/// the rules passed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewAddress {
    pub name: ContactName,
    pub phone: Phone,
    pub base_address: BaseAddress,
    pub house_number: HouseNumber,
    #[serde(flatten)]
    pub point: AddressPoint,
    pub city_name: Option<String>,
    pub province_name: Option<String>,
    pub county_name: Option<String>,
    pub is_default: bool,
    pub sex: Option<Sex>,
    pub tag: Option<AddressTag>,
}

impl NewAddress {
    /// All field errors, in form order, so the user fixes them in one pass.
    pub fn parse(raw: RawAddress) -> Result<NewAddress, Vec<AddressError>> {
        let text = |v: &Option<String>| v.as_deref().unwrap_or_default().to_owned();
        let name = ContactName::parse(&text(&raw.name));
        let phone = Phone::parse(&text(&raw.phone)).map_err(AddressError::Phone);
        let base_address = BaseAddress::parse(&text(&raw.base_address));
        let house_number = HouseNumber::parse(&text(&raw.house_number));
        let point = AddressPoint::parse(raw.lat.as_deref(), raw.lng.as_deref());
        let sex = Sex::parse(raw.sex.as_deref());
        let tag = AddressTag::parse(raw.tag.as_deref());
        match (name, phone, base_address, house_number, point, sex, tag) {
            (
                Ok(name),
                Ok(phone),
                Ok(base_address),
                Ok(house_number),
                Ok(point),
                Ok(sex),
                Ok(tag),
            ) => Ok(NewAddress {
                sex,
                tag,
                name,
                phone,
                base_address,
                house_number,
                point,
                city_name: region_name(raw.city_name.as_deref()),
                province_name: region_name(raw.province_name.as_deref()),
                county_name: region_name(raw.county_name.as_deref()),
                is_default: raw.is_default.unwrap_or(false),
            }),
            (name, phone, base, house, point, sex, tag) => Err([
                name.err(),
                sex.err(),
                phone.err(),
                base.err(),
                house.err(),
                point.err(),
                tag.err(),
            ]
            .into_iter()
            .flatten()
            .collect()),
        }
    }
}

/// Region names come from the map picker, not the user, so they are cleaned rather than
/// refused; blank means unknown.
fn region_name(raw: Option<&str>) -> Option<String> {
    raw.map(|t| clean_address_text(t).trim().to_owned())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressError::{
        BaseAddressEmpty, BaseAddressIllegal, BaseAddressInvisible, ContactNameEmpty,
        ContactNameIllegal, ContactNameInvisible, ContactNameTooLong, DefaultNotDeletable,
        HouseNumberEmpty, HouseNumberIllegal, HouseNumberInvisible, HouseNumberTooLong,
        IllegalLocation, SelectedNotDeletable,
    };

    #[test]
    fn contact_name_table() {
        let cases = [
            ("张三", Ok("张三")),
            (" 王先生 ", Ok("王先生")),
            ("John Smith", Ok("John Smith")),
            ("J. Smith", Ok("J. Smith")),
            ("Mary-Jane", Ok("Mary-Jane")),
            ("阿沛·阿旺晋美", Ok("阿沛·阿旺晋美")),
            ("张三2", Ok("张三2")),
            (
                "一二三四五六七八九十一二三四五六",
                Ok("一二三四五六七八九十一二三四五六"),
            ),
            (
                "一二三四五六七八九十一二三四五六七",
                Err(ContactNameTooLong),
            ),
            ("", Err(ContactNameEmpty)),
            ("  ", Err(ContactNameEmpty)),
            ("张三!", Err(ContactNameIllegal)),
            ("O'Brien", Err(ContactNameIllegal)),
            ("张|三", Err(ContactNameIllegal)),
            ("小明😀", Err(ContactNameIllegal)),
            ("a@b", Err(ContactNameIllegal)),
            ("\u{202E}三张", Err(ContactNameInvisible)),
            ("张\u{200D}三", Err(ContactNameInvisible)),
            ("张\u{0007}三", Err(ContactNameInvisible)),
        ];
        for (raw, want) in cases {
            let got = ContactName::parse(raw);
            assert_eq!(
                got.as_ref().map(ContactName::as_str),
                want.as_ref().copied(),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn house_number_table() {
        let hundred = "1".repeat(100);
        let too_long = "1".repeat(101);
        let cases = [
            ("5楼501", Ok("5楼501")),
            (" 3号楼2单元501室 ", Ok("3号楼2单元501室")),
            ("Room 501", Ok("Room 501")),
            (hundred.as_str(), Ok(hundred.as_str())),
            (too_long.as_str(), Err(HouseNumberTooLong)),
            ("", Err(HouseNumberEmpty)),
            ("   ", Err(HouseNumberEmpty)),
            ("5楼、501", Err(HouseNumberIllegal)),
            ("5|501", Err(HouseNumberIllegal)),
            ("5'501", Err(HouseNumberIllegal)),
            ("5楼\u{202E}105", Err(HouseNumberInvisible)),
            ("5楼\u{2066}501", Err(HouseNumberInvisible)),
            ("5楼\u{0}501", Err(HouseNumberInvisible)),
        ];
        for (raw, want) in cases {
            let got = HouseNumber::parse(raw);
            assert_eq!(
                got.as_ref().map(HouseNumber::as_str),
                want.as_ref().copied(),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn base_address_table() {
        let cases = [
            ("上海市黄浦区西藏中路236号", Ok(())),
            (" 88 Century Avenue ", Ok(())),
            ("", Err(BaseAddressEmpty)),
            (" ", Err(BaseAddressEmpty)),
            ("上海市、黄浦区", Err(BaseAddressIllegal)),
            ("Jing'an", Err(BaseAddressIllegal)),
            ("人民广场\u{200B}", Err(BaseAddressInvisible)),
            ("A|B", Err(BaseAddressIllegal)),
            ("西藏中路\u{0}236号", Err(BaseAddressInvisible)),
            ("北京市朝阳区三里屯路19号", Ok(())),
        ];
        for (raw, want) in cases {
            assert_eq!(BaseAddress::parse(raw).map(|_| ()), want, "{raw:?}");
        }
    }

    #[test]
    fn clean_address_text_table() {
        let cases = [
            ("上海市、黄浦区", "上海市黄浦区"),
            ("A|B", "AB"),
            ("Jing'an", "Jingan"),
            ("、|'", ""),
            ("  5楼 501 ", "  5楼 501 "),
            ("", ""),
            ("人民广场’", "人民广场’"),
            ("a、b|c'd", "abcd"),
        ];
        for (raw, want) in cases {
            assert_eq!(clean_address_text(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn is_illegal_table() {
        let cases = [
            (None, true),
            (Some(""), true),
            (Some("31.23"), true),
            (Some("31.230"), false),
            (Some("31.2304"), false),
        ];
        for (lat, want) in cases {
            assert_eq!(is_illegal(lat), want, "{lat:?}");
        }
    }

    #[test]
    fn address_point_table() {
        let cases = [
            (Some("31.2304"), Some("121.4737"), Ok(())),
            (Some(" 31.2304 "), Some("121.4737"), Ok(())),
            (None, Some("121.4737"), Err(IllegalLocation)),
            (Some("31.23"), Some("121.4737"), Err(IllegalLocation)),
            (Some("31.2304"), None, Err(IllegalLocation)),
            (Some("31.2304"), Some("abc"), Err(IllegalLocation)),
            (Some("0.00000"), Some("0.00000"), Err(IllegalLocation)),
            (Some("undefined"), Some("undefined"), Err(IllegalLocation)),
            (Some("95.00000"), Some("121.4737"), Err(IllegalLocation)),
        ];
        for (lat, lng, want) in cases {
            assert_eq!(
                AddressPoint::parse(lat, lng).map(|_| ()),
                want,
                "{lat:?} {lng:?}"
            );
        }
        let p = AddressPoint::parse(Some(" 31.2304 "), Some("121.4737"));
        assert_eq!(p.as_ref().map(AddressPoint::lat), Ok("31.2304"));
        assert_eq!(
            p.map(|p| p.point()),
            Ok(LngLat {
                lng: 121.4737,
                lat: 31.2304
            })
        );
    }

    #[test]
    fn check_deletable_table() {
        let cases = [
            (false, false, Ok(())),
            (true, false, Err(DefaultNotDeletable)),
            (false, true, Err(SelectedNotDeletable)),
            (true, true, Err(DefaultNotDeletable)),
        ];
        for (default, selected, want) in cases {
            assert_eq!(check_deletable(default, selected), want);
        }
    }

    fn raw_ok() -> RawAddress {
        let s = |v: &str| Some(v.to_owned());
        RawAddress {
            name: s("张三"),
            phone: s("138 1234 5678"),
            base_address: s("上海市黄浦区西藏中路236号"),
            house_number: s("5楼501"),
            lat: s("31.2304"),
            lng: s("121.4737"),
            city_name: s("上海市"),
            province_name: s("上海市"),
            county_name: s(" "),
            is_default: None,
            sex: None,
            tag: None,
        }
    }

    #[test]
    fn new_address_parses() {
        let got = NewAddress::parse(raw_ok());
        let Ok(a) = got else {
            panic!("{got:?}");
        };
        assert_eq!(a.name.as_str(), "张三");
        assert_eq!(a.phone.as_str(), "13812345678");
        assert_eq!(a.base_address.as_str(), "上海市黄浦区西藏中路236号");
        assert_eq!(a.house_number.as_str(), "5楼501");
        assert_eq!((a.point.lat(), a.point.lng()), ("31.2304", "121.4737"));
        assert_eq!(a.city_name.as_deref(), Some("上海市"));
        assert_eq!(a.county_name, None);
        assert!(!a.is_default);
        let json = serde_json::to_value(&a).unwrap_or_default();
        assert_eq!(json["phone"], "13812345678");
        assert_eq!(json["lat"], "31.2304");
        assert_eq!(json["houseNumber"], "5楼501");
        assert_eq!(json["isDefault"], false);
    }

    #[test]
    fn new_address_collects_all_errors() {
        let s = |v: &str| Some(v.to_owned());
        let cases: Vec<(RawAddress, Vec<AddressError>)> = vec![
            (raw_ok(), vec![]),
            (
                RawAddress::default(),
                vec![
                    ContactNameEmpty,
                    AddressError::Phone(PhoneError::Empty),
                    BaseAddressEmpty,
                    HouseNumberEmpty,
                    IllegalLocation,
                ],
            ),
            (
                RawAddress {
                    name: s("张三!"),
                    phone: s("12345"),
                    base_address: s("上海|黄浦"),
                    house_number: s("5楼、501"),
                    lat: s("31.23"),
                    ..raw_ok()
                },
                vec![
                    ContactNameIllegal,
                    AddressError::Phone(PhoneError::Format),
                    BaseAddressIllegal,
                    HouseNumberIllegal,
                    IllegalLocation,
                ],
            ),
            (
                RawAddress {
                    house_number: Some("1".repeat(101)),
                    ..raw_ok()
                },
                vec![HouseNumberTooLong],
            ),
            (
                RawAddress {
                    lng: None,
                    ..raw_ok()
                },
                vec![IllegalLocation],
            ),
        ];
        for (raw, want) in cases {
            let got = NewAddress::parse(raw.clone()).err().unwrap_or_default();
            assert_eq!(got, want, "{raw:?}");
        }
    }

    #[test]
    fn raw_address_from_json() {
        let json = r#"{"name":"李四","phone":"13912345678","baseAddress":"北京市朝阳区三里屯路19号",
            "houseNumber":"3号楼","lat":"39.9361","lng":"116.4551","isDefault":true}"#;
        let raw: RawAddress = serde_json::from_str(json).unwrap_or_default();
        let a = NewAddress::parse(raw).ok();
        assert_eq!(a.as_ref().map(|a| a.is_default), Some(true));
        assert_eq!(a.and_then(|a| a.city_name), None);
    }

    #[test]
    fn messages() {
        let cases = [
            (ContactNameEmpty, Lang::Zh, "联系人不能为空"),
            (IllegalLocation, Lang::Zh, "地址不合法，请重新选择地址"),
            (
                IllegalLocation,
                Lang::En,
                "The address is not valid, please choose it again",
            ),
            (
                AddressError::Phone(PhoneError::Format),
                Lang::En,
                "The format of the phone number is incorrect",
            ),
            (DefaultNotDeletable, Lang::Zh, "默认地址不能删除"),
            (
                SelectedNotDeletable,
                Lang::En,
                "The selected address cannot be deleted",
            ),
        ];
        for (e, lang, want) in cases {
            assert_eq!(e.message(lang), want);
        }
        assert_eq!(AddressError::Phone(PhoneError::Empty).field(), "phone");
        assert_eq!(HouseNumberTooLong.field(), "houseNumber");
    }

    #[test]
    fn sex_and_tag_take_their_words_or_nothing() {
        assert_eq!(Sex::parse(None), Ok(None));
        assert_eq!(Sex::parse(Some(" ")), Ok(None));
        assert_eq!(Sex::parse(Some("female")), Ok(Some(Sex::Female)));
        assert_eq!(Sex::parse(Some("女士")), Err(AddressError::SexInvalid));
        assert_eq!(
            AddressTag::parse(Some("school")),
            Ok(Some(AddressTag::School))
        );
        assert_eq!(
            AddressTag::parse(Some("Home")),
            Err(AddressError::TagInvalid)
        );
        let mut raw = raw_ok();
        raw.sex = Some("x".into());
        raw.tag = Some("y".into());
        let errors = NewAddress::parse(raw).err().unwrap_or_default();
        assert_eq!(
            errors.iter().map(AddressError::field).collect::<Vec<_>>(),
            ["sex", "tag"]
        );
        for e in &errors {
            assert!(!e.message(Lang::Zh).is_empty() && !e.message(Lang::En).is_empty());
        }
    }
}

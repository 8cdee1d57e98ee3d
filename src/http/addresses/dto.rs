//! The address book's JSON shape (spec account §3).

use actors::db::addresses::AddressRow;
use actors::domain::geo::address::{is_illegal, RawAddress};
use actors::domain::geo::smart_read::SmartRead;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddressDto {
    pub id: i64,
    /// The recipient.
    pub name: String,
    pub phone: String,
    pub base_address: String,
    pub house_number: String,
    /// GCJ-02, as picked on the map.
    pub lat: String,
    pub lng: String,
    pub city_name: Option<String>,
    pub province_name: Option<String>,
    pub county_name: Option<String>,
    pub is_default: bool,
    /// The latitude is missing or 5 characters or fewer: the address must be picked again.
    pub illegal: bool,
    /// Some store delivers there.
    pub has_scope: bool,
    pub updated_at: i64,
    /// How the rider greets the recipient: `male` (先生) or `female` (女士); null: not said.
    #[schema(value_type = Option<String>, example = "female")]
    pub sex: Option<String>,
    /// What the place is: `home` (家), `company` (公司) or `school` (学校); null: none.
    #[schema(value_type = Option<String>, example = "home")]
    pub tag: Option<String>,
}

impl AddressDto {
    pub fn new(row: AddressRow, has_scope: bool) -> AddressDto {
        AddressDto {
            illegal: is_illegal(Some(&row.lat)),
            id: row.id,
            name: row.name,
            phone: row.phone,
            base_address: row.base_address,
            house_number: row.house_number,
            lat: row.lat,
            lng: row.lng,
            city_name: row.city_name,
            province_name: row.province_name,
            county_name: row.county_name,
            is_default: row.is_default,
            has_scope,
            updated_at: row.updated_at,
            sex: row.sex,
            tag: row.tag,
        }
    }
}

/// The address form (insert and update). Coordinates are accepted as text or numbers; the
/// text is what the legality rule measures, so numbers are kept as they print.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddressForm {
    /// The recipient, at most 16 characters.
    pub name: Option<String>,
    pub phone: Option<String>,
    /// The map-picked address line; no 、 | '.
    pub base_address: Option<String>,
    /// House number or detailed address, at most 100 characters.
    pub house_number: Option<String>,
    #[schema(value_type = Option<String>, example = "31.230416")]
    pub lat: Option<TextOrNumber>,
    #[schema(value_type = Option<String>, example = "121.473701")]
    pub lng: Option<TextOrNumber>,
    pub city_name: Option<String>,
    pub province_name: Option<String>,
    pub county_name: Option<String>,
    /// On insert: make it the default. On update: absent keeps the flag as it is.
    pub is_default: Option<bool>,
    /// `male` (先生) or `female` (女士); empty or absent: not said. Anything else is refused.
    #[schema(example = "female")]
    pub sex: Option<String>,
    /// `home` (家), `company` (公司) or `school` (学校); empty or absent: none. Anything else is
    /// refused.
    #[schema(example = "home")]
    pub tag: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum TextOrNumber {
    Text(String),
    Number(serde_json::Number),
}

impl TextOrNumber {
    fn into_text(self) -> String {
        match self {
            TextOrNumber::Text(t) => t,
            TextOrNumber::Number(n) => n.to_string(),
        }
    }
}

impl From<AddressForm> for RawAddress {
    fn from(f: AddressForm) -> RawAddress {
        RawAddress {
            name: f.name,
            phone: f.phone,
            base_address: f.base_address,
            house_number: f.house_number,
            lat: f.lat.map(TextOrNumber::into_text),
            lng: f.lng.map(TextOrNumber::into_text),
            city_name: f.city_name,
            province_name: f.province_name,
            county_name: f.county_name,
            is_default: f.is_default,
            sex: f.sex,
            tag: f.tag,
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SmartReadRequest {
    /// A pasted "name phone address" text, at most 500 characters.
    pub text: Option<String>,
}

/// What smart paste recognised; fields it could not find are null.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmartReadDto {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub house_number: Option<String>,
}

impl From<SmartRead> for SmartReadDto {
    fn from(r: SmartRead) -> SmartReadDto {
        SmartReadDto {
            name: r.name,
            phone: r.phone,
            address: r.address,
            house_number: r.house_number,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_as_text_or_numbers() {
        let form: AddressForm =
            serde_json::from_str(r#"{"lat": 31.230416, "lng": "121.473701", "isDefault": true}"#)
                .unwrap_or_default();
        let raw = RawAddress::from(form);
        assert_eq!(raw.lat.as_deref(), Some("31.230416"));
        assert_eq!(raw.lng.as_deref(), Some("121.473701"));
        assert_eq!(raw.is_default, Some(true));
    }
}

//! The answers of the OpenAPI document made exact for the app's generated TypeScript types
//! (`frontend/src/lib/api/schema.gen.ts`, `npm run gen:api`): each data type a component of its
//! own, and every field an answer always carries `required`.

use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The annotations name `Envelope<T>` so that `T` is a component of its own (the app's generated
/// types name it: `StoreDto`, `CartDto`); the envelope around it is the same on every answer, so
/// it goes back into the operations and the components keep only the data.
pub fn inline_envelopes(paths: &mut Map<String, Value>, schemas: &mut Value) {
    let Some(schemas) = schemas.as_object_mut() else {
        return;
    };
    let envelopes: Map<String, Value> = schemas
        .iter()
        .filter(|(name, _)| name.starts_with("Envelope_"))
        .map(|(name, schema)| (format!("#/components/schemas/{name}"), schema.clone()))
        .collect();
    schemas.retain(|name, _| !name.starts_with("Envelope_"));
    let bodies = paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|op| op["responses"].as_object_mut())
        .flat_map(|responses| responses.values_mut())
        .filter_map(|response| response["content"].as_object_mut())
        .flat_map(|content| content.values_mut());
    for body in bodies {
        let Some((name, envelope)) = body["schema"]["$ref"]
            .as_str()
            .and_then(|r| envelopes.get_key_value(r))
        else {
            continue;
        };
        let mut envelope = envelope.clone();
        // utoipa writes `T` out inside the envelope; its component says the same under a name.
        let data_type = name
            .trim_start_matches("#/components/schemas/Envelope_")
            .trim_start_matches("Vec_")
            .trim_start_matches("Option_");
        if let Some(component) = schemas.get(data_type) {
            name_data(
                &mut envelope["properties"]["data"],
                component,
                &format!("#/components/schemas/{data_type}"),
            );
        }
        body["schema"] = envelope;
    }
}

/// Replaces the written-out `component` in `data` (itself, its items, or one of its choices)
/// by a reference to it.
fn name_data(data: &mut Value, component: &Value, reference: &str) {
    let named = serde_json::json!({ "$ref": reference });
    if data == component {
        *data = named;
    } else if data["items"] == *component {
        data["items"] = named;
    } else if let Some(choices) = data["oneOf"].as_array_mut() {
        for choice in choices.iter_mut().filter(|c| *c == component) {
            *choice = named.clone();
        }
    }
}

/// The fields of answers that serde leaves out when empty (`skip_serializing_if`), by schema:
/// `actors::providers::maps::Poi::distance_m` (only nearby lists have a distance).
const MAY_BE_ABSENT: [(&str, &str); 1] = [("Poi", "distanceM")];

/// Every field of an answer is always sent: serde writes `None` as null, and the few fields
/// skipped when empty are listed in [`MAY_BE_ABSENT`]. utoipa leaves `Option` and
/// `#[serde(default)]` fields out of `required`, which is true of request bodies only; so every
/// property of a schema that only answers use becomes `required` (an `Option` stays nullable).
/// A schema a request body also uses keeps utoipa's reading. A new `skip_serializing_if` on an
/// answer type belongs in [`MAY_BE_ABSENT`]; the schema check (`make test-schema`) fails on
/// the missing field otherwise.
pub fn require_answer_fields(doc: &mut Value) {
    let schemas = doc["components"]["schemas"].clone();
    let mut asked = Vec::new();
    let mut answered = Vec::new();
    for op in doc["paths"]
        .as_object()
        .into_iter()
        .flat_map(|paths| paths.values())
        .filter_map(Value::as_object)
        .flat_map(|item| item.values())
    {
        asked.push(&op["requestBody"]);
        asked.push(&op["parameters"]);
        answered.push(&op["responses"]);
    }
    answered.push(&doc["components"]["responses"]);
    let asked = reachable(&asked, &schemas);
    let answer_only: Vec<String> = reachable(&answered, &schemas)
        .difference(&asked)
        .cloned()
        .collect();
    for name in answer_only {
        let schema = &mut doc["components"]["schemas"][&name];
        require_all(schema);
        for (_, field) in MAY_BE_ABSENT.iter().filter(|(of, _)| *of == name) {
            if let Some(required) = schema["required"].as_array_mut() {
                required.retain(|f| f != field);
            }
        }
    }
    // Answers written inline in an operation rather than as a component.
    for responses in doc["paths"]
        .as_object_mut()
        .into_iter()
        .flat_map(|paths| paths.values_mut())
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|op| op["responses"].as_object_mut())
    {
        responses.values_mut().for_each(require_all);
    }
}

/// The component schemas the values name, directly or through other components.
fn reachable(values: &[&Value], schemas: &Value) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut todo: Vec<String> = values.iter().flat_map(|v| refs(v)).collect();
    while let Some(name) = todo.pop() {
        if found.insert(name.clone()) {
            todo.extend(refs(&schemas[&name]));
        }
    }
    found
}

fn refs(value: &Value) -> Vec<String> {
    match value {
        Value::Object(map) => map
            .iter()
            .flat_map(|(key, v)| match (key.as_str(), v) {
                ("$ref", Value::String(r)) => r
                    .strip_prefix("#/components/schemas/")
                    .map(str::to_string)
                    .into_iter()
                    .collect(),
                _ => refs(v),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(refs).collect(),
        _ => Vec::new(),
    }
}

/// Makes every property of every object schema inside `schema` required (not through `$ref`).
fn require_all(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    // A map of field names, not a schema: a field may be called `properties`.
                    ("properties", Value::Object(props)) => {
                        props.values_mut().for_each(require_all)
                    }
                    (_, value) => require_all(value),
                }
            }
            if let Some(Value::Object(props)) = map.get("properties") {
                let names: Vec<Value> = props.keys().cloned().map(Value::String).collect();
                map.insert("required".into(), Value::Array(names));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(require_all),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_of_answers_are_required_and_request_bodies_keep_their_optional_fields() {
        let mut doc = json!({
            "paths": {"/x": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Body"}}}},
                "responses": {"200": {"content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {"data": {"$ref": "#/components/schemas/Answer"}, "note": {"type": ["string", "null"]}}
                }}}}}
            }}},
            "components": {"schemas": {
                "Body": {"type": "object", "properties": {"shared": {"$ref": "#/components/schemas/Shared"}, "a": {"type": ["string", "null"]}}},
                "Answer": {"type": "object", "properties": {
                    "inner": {"$ref": "#/components/schemas/Inner"},
                    "shared": {"$ref": "#/components/schemas/Shared"},
                    "eta": {"type": ["integer", "null"]},
                    "more": {"allOf": [{"type": "object", "properties": {"b": {"type": "string"}}}]}
                }},
                "Inner": {"type": "object", "properties": {"c": {"type": ["string", "null"]},
                    "properties": {"type": "array", "items": {"type": "string"}}}},
                "Shared": {"type": "object", "properties": {"d": {"type": ["string", "null"]}}}
            }}
        });
        require_answer_fields(&mut doc);
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["Answer"]["required"],
            json!(["eta", "inner", "more", "shared"])
        );
        assert_eq!(
            schemas["Answer"]["properties"]["more"]["allOf"][0]["required"],
            json!(["b"])
        );
        assert_eq!(schemas["Inner"]["required"], json!(["c", "properties"]));
        assert!(schemas["Inner"]["properties"]["properties"]
            .get("required")
            .is_none());
        // A request body's fields may be left out, and so may those of a schema it shares.
        assert!(schemas["Body"].get("required").is_none());
        assert!(schemas["Shared"].get("required").is_none());
        let inline = &doc["paths"]["/x"]["post"]["responses"]["200"]["content"]["application/json"]
            ["schema"];
        assert_eq!(inline["required"], json!(["data", "note"]));
    }

    #[test]
    fn an_envelope_goes_back_into_the_operation() {
        let store = json!({"type": "object", "properties": {"code": {"type": "string"}}});
        let envelope = |data: Value| json!({"type": "object", "properties": {"data": data}});
        let mut schemas = json!({
            "Envelope_Store": envelope(store.clone()),
            "Envelope_Vec_Store": envelope(json!({"type": "array", "items": store})),
            "Envelope_Option_Store": envelope(json!({"oneOf": [{"type": "null"}, store]})),
            "Store": store.clone(),
        });
        let op = |name: &str| {
            json!({"get": {"responses": {"200": {"content": {
                "application/json": {"schema": {"$ref": format!("#/components/schemas/{name}")}}
            }}}}})
        };
        let mut paths = json!({
            "/one": op("Envelope_Store"),
            "/many": op("Envelope_Vec_Store"),
            "/maybe": op("Envelope_Option_Store"),
        });
        if let Some(paths) = paths.as_object_mut() {
            inline_envelopes(paths, &mut schemas);
        }
        let named = json!({"$ref": "#/components/schemas/Store"});
        let data = |path: &str| {
            paths[path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
                ["properties"]["data"]
                .clone()
        };
        assert_eq!(data("/one"), named);
        assert_eq!(data("/many"), json!({"type": "array", "items": named}));
        assert_eq!(data("/maybe"), json!({"oneOf": [{"type": "null"}, named]}));
        assert_eq!(schemas, json!({"Store": store}));
    }
}

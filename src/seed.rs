//! Loading the demo chain (actors/seed/*.json, embedded in the binary) into the database.

use actors::db::catalogue::CatalogueRepo;
use actors::db::Db;
use actors::domain::store_rules;
use anyhow::Context;

pub async fn run(db: &Db) -> anyhow::Result<()> {
    let mut catalogue =
        actors::domain::seed::demo_catalogue().context("the embedded demo catalogue is invalid")?;
    // Store data without a store code is rejected and logged, never loaded (spec §5).
    catalogue
        .stores
        .retain(|store| match store_rules::check_store(store) {
            Ok(()) => true,
            Err(err) => {
                tracing::warn!(
                    store = store.name.cn,
                    error = err.message_en(),
                    "门店数据有误: store skipped"
                );
                false
            }
        });
    CatalogueRepo::new(db.clone())
        .upsert(&catalogue)
        .await
        .context("writing the demo catalogue")?;
    seed_staff(db, &catalogue.stores).await?;
    tracing::info!(
        cities = catalogue.cities.len(),
        stores = catalogue.stores.len(),
        products = catalogue.products.len(),
        "demo chain seeded"
    );
    Ok(())
}

/// The demo staff: `manager` with PIN 246810 at every store (README). One hash serves them all
/// (the same PIN); hashing per store would cost every test server a second of argon2.
pub const DEMO_STAFF_CODE: &str = "manager";
pub const DEMO_STAFF_PIN: &str = "246810";

async fn seed_staff(db: &Db, stores: &[actors::domain::catalog::Store]) -> anyhow::Result<()> {
    let repo = actors::db::staff::StaffRepo::new(db.clone());
    let have = repo.stores_with_staff().await?;
    let missing: Vec<_> = stores
        .iter()
        .filter(|s| !have.contains(&s.store_code))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let hash = actors::accounts::passwords::hash(DEMO_STAFF_PIN.to_string())
        .await
        .context("hashing the demo PIN")?;
    let now = chrono::Utc::now().timestamp_millis();
    for store in missing {
        repo.insert_if_missing(&store.store_code, DEMO_STAFF_CODE, "店长", &hash, now)
            .await?;
    }
    Ok(())
}

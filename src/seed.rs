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
    tracing::info!(
        cities = catalogue.cities.len(),
        stores = catalogue.stores.len(),
        products = catalogue.products.len(),
        "demo chain seeded"
    );
    Ok(())
}

//! The one shared context handed to every handler (actix app data).

use actors::catalogue::CatalogueService;
use actors::clock::Clock;
use actors::db::Db;
use actors::providers::maps::MapsProvider;
use std::sync::Arc;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub catalogue: Arc<CatalogueService>,
    pub maps: Arc<dyn MapsProvider>,
    pub clock: Clock,
}

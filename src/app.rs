//! Wiring: build the application from settings, bind the listener (port 0 in tests) and run.

use crate::config::Settings;
use crate::housekeeping::Housekeeping;
use crate::http;
use crate::http::edge::client_ip::TrustedProxies;
use crate::realtime::engineio::{self, EngineIo};
use crate::realtime::socketio::SocketIo;
use crate::state::{AppState, RepeatGuard};
use actix_web::dev::Server;
use actix_web::{web, App};
use actors::accounts::sessions::{CachedSessions, DbSessionStore, RedisSessionStore, SessionStore};
use actors::bus::{Bus, LocalBus, RedisBus};
use actors::carts::CartRegistry;
use actors::catalogue::CatalogueService;
use actors::clock::Clock;
use actors::db::carts::CartRepo;
use actors::db::catalogue::CatalogueRepo;
use actors::db::orders::OrderRepo;
use actors::db::payments::PaymentRepo;
use actors::db::sessions::SessionRepo;
use actors::db::Db;
use actors::orders::OrderRegistry;
use actors::payments::PaymentService;
use actors::stores::{LiveStores, StoreBoards};
use anyhow::Context;
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

pub struct Application {
    port: u16,
    server: Server,
    state: AppState,
    /// The periodic jobs; they stop when the server does (the handle is dropped).
    housekeeping: Option<Housekeeping>,
    /// The port of `/metrics`' own listener, with `[metrics] bind`.
    metrics_port: Option<u16>,
}

impl Application {
    /// Connects, migrates, seeds an empty embedded database, binds the listener and starts the
    /// periodic jobs (and the sandbox's notifies still being sent).
    pub async fn build(settings: Settings, clock: Clock) -> anyhow::Result<Application> {
        Application::assemble(settings, clock, true).await
    }

    /// The same services for a one-off command (`pizza-order reconcile`): listening on a port
    /// of its own, and with no periodic job, so it never competes with the running server's.
    pub async fn for_command(mut settings: Settings, clock: Clock) -> anyhow::Result<Application> {
        settings.server.bind = "127.0.0.1:0".into();
        Application::assemble(settings, clock, false).await
    }

    async fn assemble(settings: Settings, clock: Clock, jobs: bool) -> anyhow::Result<Application> {
        let db = open_database(&settings).await?;
        db.migrate().await.context("applying migrations")?;
        let repo = CatalogueRepo::new(db.clone());
        if settings.is_embedded_database()
            && settings.database.seed_when_empty
            && repo.store_count().await? == 0
        {
            tracing::info!("empty embedded database: seeding the demo chain");
            crate::seed::run(&db).await?;
        }
        if settings.is_embedded_database()
            && settings.database.seed_when_empty
            && actors::db::members::MemberRepo::new(db.clone())
                .levels()
                .await?
                .is_empty()
        {
            // A database seeded before the member club existed gets its levels and agreement.
            crate::seed::seed_loyalty(&db).await?;
        }
        if settings.is_embedded_database()
            && settings.database.seed_when_empty
            && crate::seed::coupon_templates_missing(&db).await?
        {
            // A database seeded before coupons (or the privileges' templates) existed gets the
            // templates, the demo codes and the levels' coupon gift options and privileges.
            crate::seed::seed_coupons(&db).await?;
            crate::seed::seed_loyalty(&db).await?;
        }
        let catalogue = CatalogueService::start(
            repo,
            Duration::from_secs(settings.catalogue.refresh_seconds),
        )
        .await
        .context("loading the catalogue")?;
        let snapshot = catalogue.get().await;
        let maps = crate::providers::maps::provider(&snapshot.catalogue, settings.maps.as_ref())
            .context("building the maps client")?;
        let sms = crate::providers::sms::provider(&settings.sms.provider, clock.clone())
            .context("choosing the SMS provider")?;
        if sms.outbox.is_some() && !settings.sms.allow_sandbox {
            anyhow::bail!(
                "the sandbox SMS provider would expose login codes at /api/v1/dev/sms-outbox; \
                 configure a real provider, or set PIZZA__SMS__ALLOW_SANDBOX=true for a staging deployment"
            );
        }
        if sms.outbox.is_some() && !settings.is_embedded_database() {
            // Anyone can read login codes from the dev outbox: fine on a laptop, not in production.
            tracing::warn!(
                "the sandbox SMS provider is active: codes are readable at /api/v1/dev/sms-outbox"
            );
        }
        let session_ends = sessions_channel(&settings).await?;
        let stored = stored_sessions(&settings, &db).await?;
        let cached_sessions = CachedSessions::start_with_capacity(
            stored.clone(),
            Some(session_ends.clone()),
            settings.memory.sessions,
        );
        let sessions = cached_sessions.clone();
        let redis = settings
            .redis_url()
            .map(|url| (url, settings.redis.key_prefix.as_str()));
        let realtime = crate::realtime::setup::start(
            redis,
            clock.clone(),
            crate::realtime::setup::Sessions {
                cached: sessions.clone(),
                stored,
                ends: session_ends.clone(),
            },
            db.clone(),
        )
        .await?;
        let actor_thread = actors::actor_thread::start().context("starting the actor thread")?;
        // Every order event published on this node makes the node (and, through Redis, the
        // others) forget what it keeps of that order's detail, before anyone hears of it.
        let order_views = Arc::new(crate::http::orders::views::OrderViews::with_capacity(
            settings.memory.order_views,
        ));
        let bus = crate::http::orders::views::ForgettingBus::wrap(
            realtime.bus.clone(),
            order_views.clone(),
            peers_channel(&settings, "order-views").await?,
        );
        let carts = Arc::new(
            CartRegistry::new(
                CartRepo::new(db.clone()),
                OrderRepo::new(db.clone()),
                bus.clone(),
                clock.clone(),
                actor_thread.clone(),
            )
            .with_idle(settings.memory.session_idle()),
        );
        // Bound before the state is built: the payment notify URL needs the port.
        let listener = TcpListener::bind(&settings.server.bind)
            .with_context(|| format!("binding {}", settings.server.bind))?;
        let port = listener.local_addr()?.port();
        let payment = crate::providers::payment::provider(
            &settings.payment.provider,
            settings.payment.sandbox.clone(),
            || {
                // Said before the key is asked for: the sandbox itself is what production refuses.
                anyhow::ensure!(
                    settings.payment.allow_sandbox,
                    "the sandbox payment provider lets anyone pay at its cashier page; configure a \
                     real provider, or set PIZZA__PAYMENT__ALLOW_SANDBOX=true for a staging deployment"
                );
                crate::providers::payment::keys::sandbox_secret(&settings)
            },
            db.clone(),
            clock.clone(),
        )
        .context("choosing the payment provider")?;
        let catalogue = Arc::new(catalogue);
        let stores = StoreBoards::start(
            db.clone(),
            (bus.clone(), peers_channel(&settings, "store-boards").await?),
            realtime.presence.clone(),
            clock.clone(),
            actor_thread.clone(),
            settings.memory.session_idle(),
        );
        let orders = Arc::new(
            OrderRegistry::new(
                OrderRepo::new(db.clone()),
                LiveStores::new(catalogue.clone(), stores.clone()),
                bus.clone(),
                clock.clone(),
                actor_thread.clone(),
            )
            .with_idle(settings.memory.session_idle()),
        );
        let loyalty = actors::loyalty::Loyalty::new(
            db.clone(),
            clock.clone(),
            actors::loyalty::LoyaltySettings {
                points_pending_ms: settings.loyalty.points_pending_ms.max(0),
            },
        );
        orders.set_loyalty(loyalty.clone());
        let coupons = actors::coupons::Coupons::new(db.clone(), clock.clone());
        orders.set_coupons(coupons.clone());
        let payments = Arc::new(
            PaymentService::new(
                PaymentRepo::new(db.clone()),
                payment.provider,
                orders.clone(),
                bus.clone(),
                clock.clone(),
                actor_thread,
            )
            .with_limits(settings.payment.attempt_limits())
            .with_idle(settings.memory.session_idle()),
        );
        let notify_base_url = match settings.payment.notify_base_url.trim() {
            "" => format!("http://127.0.0.1:{port}"),
            url => url.trim_end_matches('/').to_string(),
        };
        let state = AppState {
            stores,
            orders,
            payments,
            loyalty,
            coupons,
            loyalty_sweep_ms: settings.loyalty.sweep_ms,
            memory_sweep_seconds: settings.memory.sweep_seconds,
            cached_sessions,
            sandbox_payments: payment.sandbox,
            notify_base_url,
            replies: Arc::default(),
            order_views,
            catalogue,
            maps,
            sms: sms.provider,
            sms_outbox: sms.outbox,
            privacy_policy_updated_at: settings.privacy.policy_updated_at,
            clock,
            sessions,
            session_ends,
            carts,
            reservation_throttle: Arc::new(RepeatGuard::default()),
            table_secret: Arc::new(table_secret(&settings)?),
            ops_token: Some(settings.ordering.ops_token.trim())
                .filter(|t| !t.is_empty())
                .map(Arc::from),
            db,
            bus,
            io: realtime.io,
        };

        crate::realtime::setup::serve_presence(
            realtime.presence_changes,
            state.stores.clone(),
            state.io.clone(),
        );
        let _ = realtime
            .order_watch
            .set(Arc::new(http::orders::watch::WatchOrders(state.clone())));
        let server = run(listener, state.clone(), realtime.engine, &settings)?;
        let metrics_port = match crate::metrics::serve_separately(&settings.metrics, state.clone())?
        {
            Some((port, metrics_server)) => {
                tokio::spawn(metrics_server);
                Some(port)
            }
            None => None,
        };
        let housekeeping = jobs.then(|| crate::housekeeping::start(state.clone()));
        tracing::info!(port, database = %actors::db::redact(&settings.database_url()), "listening");
        Ok(Application {
            port,
            server,
            state,
            housekeeping,
            metrics_port,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Where `/metrics` is served on its own (`[metrics] bind`), if it is.
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics_port
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let _housekeeping = self.housekeeping;
        self.server.await
    }
}

/// The key table QR links are signed with: `[ordering] table_secret`, else (embedded default)
/// one made on first start and kept in the data dir, so printed codes survive restarts.
pub fn table_secret(settings: &Settings) -> anyhow::Result<Vec<u8>> {
    let configured = settings.ordering.table_secret.trim();
    if !configured.is_empty() {
        anyhow::ensure!(
            configured.len() >= 16,
            "[ordering] table_secret must be at least 16 characters"
        );
        return Ok(configured.as_bytes().to_vec());
    }
    anyhow::ensure!(
        settings.is_embedded_database(),
        "[ordering] table_secret (PIZZA__ORDERING__TABLE_SECRET) is required with an external database"
    );
    let path = settings.server.data_dir.join("table-secret");
    if let Ok(existing) = std::fs::read_to_string(&path) {
        if existing.trim().len() >= 16 {
            return Ok(existing.trim().as_bytes().to_vec());
        }
    }
    std::fs::create_dir_all(&settings.server.data_dir)?;
    let secret = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    std::fs::write(&path, &secret).with_context(|| format!("writing {}", path.display()))?;
    Ok(secret.into_bytes())
}

pub async fn open_database(settings: &Settings) -> anyhow::Result<Db> {
    if settings.is_embedded_database() {
        std::fs::create_dir_all(&settings.server.data_dir).with_context(|| {
            format!(
                "creating the data dir {}",
                settings.server.data_dir.display()
            )
        })?;
    }
    let url = settings.database_url();
    Db::connect(&url, settings.database.max_connections)
        .await
        .with_context(|| format!("connecting to {}", actors::db::redact(&url)))
}

/// Where every node hears of ended sessions (`<key_prefix>sessions` with Redis; in process on
/// one node): its memory of customers' sessions forgets them, its gateway disconnects their
/// sockets (customers' and tablets').
async fn sessions_channel(settings: &Settings) -> anyhow::Result<Arc<dyn Bus>> {
    Ok(match peers_channel(settings, "sessions").await? {
        Some(redis) => redis,
        None => Arc::new(LocalBus::new()),
    })
}

/// A Redis channel `<key_prefix><name>` between the nodes, on which what each keeps in memory
/// (store boards, sessions, orders' details) hears of the other nodes' changes; None without
/// Redis (one node, or nodes that rely on the memory's max age).
async fn peers_channel(settings: &Settings, name: &str) -> anyhow::Result<Option<Arc<dyn Bus>>> {
    let Some(url) = settings.redis_url() else {
        return Ok(None);
    };
    let channel = format!("{}{name}", settings.redis.key_prefix);
    let bus = RedisBus::connect(url, &channel)
        .await
        .with_context(|| format!("connecting {name} to Redis at {}", actors::db::redact(url)))?;
    Ok(Some(Arc::new(bus)))
}

/// Redis when configured (every node shares it, and it expires sessions by itself), the
/// database otherwise; the app resolves them from memory for a few seconds at a time
/// (`CachedSessions`).
async fn stored_sessions(settings: &Settings, db: &Db) -> anyhow::Result<Arc<dyn SessionStore>> {
    Ok(match settings.redis_url() {
        Some(url) => {
            let store = RedisSessionStore::connect(url, &settings.redis.key_prefix)
                .await
                .with_context(|| format!("connecting to Redis at {}", actors::db::redact(url)))?;
            tracing::info!("sessions are kept in Redis");
            Arc::new(store)
        }
        None => Arc::new(DbSessionStore::new(SessionRepo::new(db.clone()))),
    })
}

fn run(
    listener: TcpListener,
    state: AppState,
    engine: Arc<EngineIo<SocketIo>>,
    settings: &Settings,
) -> anyhow::Result<Server> {
    let static_dir = settings.server.static_dir.clone();
    http::static_files::warn_if_missing(&static_dir);
    let trusted = web::Data::new(
        TrustedProxies::parse(&settings.server.trusted_proxies).map_err(|entry| {
            anyhow::anyhow!("[server] trusted_proxies: {entry:?} is neither an IP nor a CIDR")
        })?,
    );
    let data = web::Data::new(state);
    let request_log = std::sync::Arc::new(http::edge::request_log::RequestLog {
        access: http::edge::access_log::AccessLog::new(&settings.log),
        metrics: settings.metrics.enabled,
    });
    let metrics = crate::metrics::Endpoint::main_port(&settings.metrics)?;
    let mounts = engineio::WebSocketMounts::new().mount(crate::realtime::setup::PATH, &engine);
    let options = engineio::ListenOptions {
        workers: settings.server.workers.max(1),
        // The parser's bare 400 and 431 become the envelope with the security headers.
        parser_refusals: Some(engineio::RenderRefusal(Arc::new(
            http::edge::head_limits::parser_refusal,
        ))),
        ..engineio::ListenOptions::default()
    };
    let server = engineio::serve(listener, mounts, &options, move || {
        App::new()
            .wrap(http::edge::compress::Negotiated)
            // Outermost: every answer, errors and the app's files included, gets its request
            // id, access line, metrics and security headers; the time measured includes
            // compression. Language and channel are read here too.
            .wrap(http::edge::Edge::new(request_log.clone()))
            .app_data(data.clone())
            .app_data(trusted.clone())
            .app_data(http::edge::extractor_errors::json_config())
            .app_data(http::edge::extractor_errors::query_config())
            .app_data(http::edge::extractor_errors::path_config())
            .configure(|cfg| {
                http::routes(cfg, &static_dir, |cfg| {
                    engineio::configure(cfg, crate::realtime::setup::PATH, engine.clone());
                    crate::metrics::configure(cfg, metrics.clone());
                })
            })
    })?;
    Ok(server)
}

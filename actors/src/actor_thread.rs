//! The thread the cart and order sessions live on. Requests arrive on the web server's
//! workers, notifies and timers on the general runtime, tests on their own: an actor needs an
//! actix arbiter to run on, so the registries start theirs on this one, reachable from any of
//! them. A session's work is I/O bound (one database write at a time), so one thread serves
//! many sessions.

use actix::{Arbiter, ArbiterHandle, System};

/// Starts the actor thread and answers its arbiter; the thread lives as long as the process.
pub fn start() -> std::io::Result<ArbiterHandle> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("actor-sessions".into())
        .spawn(move || {
            let system = System::new();
            system.block_on(async {
                let _ = tx.send(Arbiter::current());
            });
            if let Err(e) = system.run() {
                tracing::error!(error = %e, "the actor thread stopped");
            }
        })?;
    rx.recv()
        .map_err(|_| std::io::Error::other("the actor thread did not start"))
}

//! [`BroadcastOperator`]: `io.to(room).except(room).emit(event, args)`, for emits that start on
//! the server (the application's gateway) rather than from a socket.

use super::adapter::{BroadcastOptions, Room};
use super::namespace::NamespaceInner;
use super::socket::{check_event, EmitError, Socket};
use serde_json::Value;
use std::sync::Arc;

/// The targets of a broadcast in one namespace: sockets in any of the `to` rooms (all sockets
/// when none is named) and in none of the `except` rooms.
#[derive(Clone)]
pub struct BroadcastOperator {
    ns: Arc<NamespaceInner>,
    opts: BroadcastOptions,
}

impl BroadcastOperator {
    pub(crate) fn new(ns: Arc<NamespaceInner>) -> Self {
        BroadcastOperator {
            ns,
            opts: BroadcastOptions::default(),
        }
    }

    /// Adds a target room.
    pub fn to(mut self, room: impl Into<Room>) -> Self {
        self.opts.rooms.insert(room.into());
        self
    }

    /// Leaves out the sockets of a room (a socket id leaves out that socket).
    pub fn except(mut self, room: impl Into<Room>) -> Self {
        self.opts.except.insert(room.into());
        self
    }

    pub fn options(&self) -> &BroadcastOptions {
        &self.opts
    }

    /// Emits the event to the targets. With recovery on, it is kept in the history and each
    /// client gets its offset as an extra last argument.
    pub fn emit(&self, event: &str, args: Vec<Value>) -> Result<(), EmitError> {
        check_event(event)?;
        let mut data = Vec::with_capacity(args.len() + 1);
        data.push(Value::String(event.to_owned()));
        data.extend(args);
        self.ns.adapter.broadcast(data, &self.opts);
        Ok(())
    }

    /// The ids of the target sockets on this server.
    pub fn socket_ids(&self) -> Vec<String> {
        self.ns.adapter.sockets(&self.opts)
    }

    /// The target sockets on this server.
    pub fn sockets(&self) -> Vec<Socket> {
        let namespace = super::Namespace {
            inner: Arc::clone(&self.ns),
        };
        self.socket_ids()
            .iter()
            .filter_map(|id| namespace.socket(id))
            .collect()
    }
}

impl std::fmt::Debug for BroadcastOperator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BroadcastOperator")
            .field("namespace", &self.ns.name)
            .field("opts", &self.opts)
            .finish()
    }
}

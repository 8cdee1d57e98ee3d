//! The customer's account: sign-up and sign-in, the profile and its switches, closing it.

pub mod auth;
pub mod credentials;
pub mod dto;
pub mod me;

//! An order from submit to its end: when it is for and when it arrives, what the kitchen
//! makes, its states and who may move it, its remark and invoice, table links and view tokens.

pub mod arrival;
pub mod checkout;
pub mod comment;
pub mod eta;
pub mod invoice;
pub mod kitchen;
pub mod order_machine;
pub mod order_status;
pub mod order_time;
pub mod remark;
pub mod scan_order;
pub mod view_token;

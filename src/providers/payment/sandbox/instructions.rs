//! What `create` answers for each method (the table on [`PayMethod`]): the sandbox's trade
//! number and the pay instructions, signed with the notify key where the real provider signs
//! them, all leading to the sandbox cashier.

use super::cashier_page::escape;
use super::{SandboxPayments, NAME};
use actors::providers::payment::{
    encode_form, sign_params, CreatePayment, PayInstructions, PayMethod, SIGN_PARAM,
};

impl SandboxPayments {
    /// A trade number: 13 digits of time and 6 random ones, like a UnionPay tn. Unique in the
    /// ledger; a clash (one in a million within one ms) is drawn again.
    pub(super) fn trade_no(now: i64) -> String {
        let n = uuid::Uuid::new_v4().as_u128() % 1_000_000;
        format!("{:013}{n:06}", now.max(0))
    }

    fn signed(&self, pairs: Vec<(String, String)>) -> Vec<(String, String)> {
        let sign = sign_params(self.secret.as_bytes(), &pairs);
        let mut pairs = pairs;
        pairs.push((SIGN_PARAM.into(), sign));
        pairs
    }

    pub(super) fn instructions(
        &self,
        req: &CreatePayment,
        trade_no: &str,
        now: i64,
    ) -> PayInstructions {
        let cashier = self.cashier_url(&req.payment_id);
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let mut out = PayInstructions::empty(req.method, trade_no);
        match req.method {
            PayMethod::AlipayWap => out.html = Some(auto_submit_form(&cashier, trade_no)),
            PayMethod::AlipayApp => {
                let pairs = self.signed(vec![
                    ("app_id".into(), NAME.into()),
                    ("method".into(), "sandbox.trade.app.pay".into()),
                    ("out_trade_no".into(), req.payment_id.clone()),
                    ("trade_no".into(), trade_no.into()),
                    ("total_amount".into(), req.amount.to_string()),
                    ("subject".into(), req.subject.clone()),
                    ("timestamp".into(), now.to_string()),
                    ("cashier_url".into(), cashier),
                ]);
                out.pay_info = Some(encode_form(&pairs));
            }
            PayMethod::WechatApp => {
                let pairs = self.signed(vec![
                    ("appid".into(), NAME.into()),
                    ("partnerid".into(), "sandbox-merchant".into()),
                    ("prepayid".into(), trade_no.into()),
                    ("package".into(), "Sign=WXPay".into()),
                    ("noncestr".into(), nonce),
                    ("timestamp".into(), (now / 1000).to_string()),
                    ("cashierUrl".into(), cashier),
                ]);
                out.pay_info = Some(json_object(&pairs).to_string());
            }
            PayMethod::WechatJsapi => {
                let pairs = self.signed(vec![
                    ("appId".into(), NAME.into()),
                    ("timeStamp".into(), (now / 1000).to_string()),
                    ("nonceStr".into(), nonce),
                    ("package".into(), format!("prepay_id={trade_no}")),
                    ("signType".into(), "HMAC-SHA256".into()),
                ]);
                out.sign_info = Some(json_object(&pairs).to_string());
                // No WeixinJSBridge in the sandbox: the client opens the cashier instead.
                out.url = Some(cashier);
            }
            PayMethod::WechatH5 | PayMethod::Ccb | PayMethod::Bbc => out.url = Some(cashier),
            PayMethod::UnionpayApp => out.tn = Some(trade_no.to_owned()),
            PayMethod::UnionpayWeb => {
                out.union_pay_paras = Some(serde_json::json!({
                    "action": cashier,
                    "method": "GET",
                    "params": {
                        "merId": "SANDBOX",
                        "orderId": req.payment_id,
                        "txnAmt": req.amount.0.to_string(),
                        "tn": trade_no,
                    },
                }));
            }
            PayMethod::Offline => {}
        }
        out
    }
}

fn json_object(pairs: &[(String, String)]) -> serde_json::Value {
    serde_json::Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect(),
    )
}

/// An Alipay-style form that submits itself to the cashier once it is in the page (a client
/// that sets it with innerHTML must submit `document.forms[0]` itself: such scripts do not run).
fn auto_submit_form(cashier_url: &str, trade_no: &str) -> String {
    format!(
        "<form id=\"sandboxpaysubmit\" name=\"sandboxpaysubmit\" action=\"{}\" method=\"get\">\
         <input type=\"hidden\" name=\"trade_no\" value=\"{}\">\
         <input type=\"submit\" value=\"ok\" style=\"display:none\"></form>\
         <script>document.forms['sandboxpaysubmit'].submit();</script>",
        escape(cashier_url),
        escape(trade_no)
    )
}

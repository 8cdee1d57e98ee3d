//! The cashier page itself: HTML with its style sheet and script served as files of their own
//! (the Content-Security-Policy allows nothing inline), every text escaped.

use super::cashier::{CashierState, CashierView};
use super::MERCHANT_NAME;
use actors::providers::payment::{encode_component, PayMethod};

pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn method_label(method: PayMethod) -> &'static str {
    match method {
        PayMethod::AlipayWap | PayMethod::AlipayApp => "支付宝 · Alipay",
        PayMethod::WechatApp | PayMethod::WechatH5 | PayMethod::WechatJsapi => {
            "微信支付 · WeChat Pay"
        }
        PayMethod::UnionpayApp | PayMethod::UnionpayWeb => "云闪付 · UnionPay",
        PayMethod::Ccb => "建设银行 · CCB",
        PayMethod::Bbc => "银行支付 · Bank",
        PayMethod::Offline => "货到付款 · Pay on delivery",
    }
}

/// The cashier's style sheet, served at [`CASHIER_CSS_PATH`]: the Content-Security-Policy
/// allows no inline style element.
pub const PAGE_STYLE: &str = r#"
:root{color-scheme:light;--brand:#c8102e;--ink:#1f2328;--muted:#6b7280;--line:#e5e7eb;--bg:#f4f4f6}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 -apple-system,BlinkMacSystemFont,"PingFang SC","Hiragino Sans GB","Microsoft YaHei","Segoe UI",Roboto,sans-serif}
main{max-width:420px;margin:0 auto;padding:20px 16px calc(24px + env(safe-area-inset-bottom))}
.badge{display:inline-block;font-size:12px;color:#92400e;background:#fef3c7;border-radius:999px;padding:2px 10px}
.card{background:#fff;border-radius:16px;padding:24px 20px;margin-top:12px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.merchant,.subject{color:var(--muted);font-size:14px;text-align:center;margin:0}
.amount{font-size:40px;font-weight:600;text-align:center;margin:8px 0 4px;font-variant-numeric:tabular-nums}
.amount small{font-size:22px;margin-right:2px}
dl{display:grid;grid-template-columns:auto 1fr;gap:10px 12px;margin:20px 0 0;font-size:14px;border-top:1px solid var(--line);padding-top:16px}
dt{color:var(--muted)}dd{margin:0;text-align:right;word-break:break-all}
.en{display:block;font-size:12px;color:var(--muted)}
.actions{display:grid;gap:12px;margin-top:24px}
button{appearance:none;border:1px solid transparent;border-radius:12px;padding:12px;font:inherit;font-weight:600;cursor:pointer;min-height:48px}
button:disabled{opacity:.5;cursor:default}
.pay{background:var(--brand);color:#fff}
.fail{background:#fff;color:var(--brand);border-color:var(--brand)}
.cancel{background:#fff;color:var(--ink);border-color:var(--line)}
.state{text-align:center;font-weight:600;margin:24px 0 0}
#msg{min-height:1.5em;text-align:center;color:var(--muted);font-size:14px;margin:16px 0 0}
"#;

/// The cashier's script, served at [`CASHIER_JS_PATH`]: the Content-Security-Policy allows no
/// inline script.
pub const PAGE_SCRIPT: &str = r#"
(function () {
  var root = document.getElementById('cashier');
  var msg = document.getElementById('msg');
  var left = document.getElementById('left');
  var buttons = Array.prototype.slice.call(document.querySelectorAll('button[data-outcome]'));
  var deadline = Date.now() + Number(root.getAttribute('data-left-ms') || 0);
  var timer = null;
  function setBusy(busy) { buttons.forEach(function (b) { b.disabled = busy; }); }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function tick() {
    if (!left) { return; }
    var ms = Math.max(0, deadline - Date.now());
    var s = Math.floor(ms / 1000);
    left.textContent = pad(Math.floor(s / 60)) + ':' + pad(s % 60);
    if (ms === 0) {
      clearInterval(timer);
      setBusy(true);
      msg.textContent = '支付已超时 · The payment has expired';
    }
  }
  if (left && buttons.length) { timer = setInterval(tick, 1000); tick(); }
  buttons.forEach(function (button) {
    button.addEventListener('click', function () {
      setBusy(true);
      msg.textContent = '处理中… · Processing…';
      fetch(root.getAttribute('data-pay-url'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
        body: JSON.stringify({ outcome: button.getAttribute('data-outcome') })
      }).then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (body) {
          var data = (body && body.data) || body || {};
          if (res.ok && data.returnUrl) {
            clearInterval(timer);
            window.location.replace(data.returnUrl);
            return;
          }
          throw new Error((body && body.errMsg) || ('HTTP ' + res.status));
        });
      }).catch(function (err) {
        setBusy(false);
        msg.textContent = '操作失败，请重试 · Failed, please try again (' + err.message + ')';
      });
    });
  });
})();
"#;

pub const CASHIER_CSS_PATH: &str = "/sandbox/cashier.css";
pub const CASHIER_JS_PATH: &str = "/sandbox/cashier.js";

fn page(title: &str, root_attrs: &str, body: &str, script: bool) -> String {
    let script = if script {
        format!("<script src=\"{CASHIER_JS_PATH}\"></script>")
    } else {
        String::new()
    };
    format!(
        "<!doctype html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1, viewport-fit=cover\">\n\
         <meta name=\"robots\" content=\"noindex\">\n<title>{title}</title>\n\
         <link rel=\"stylesheet\" href=\"{CASHIER_CSS_PATH}\">\n</head>\n<body>\n<main id=\"cashier\"{root_attrs}>\n\
         <span class=\"badge\">沙箱环境，不会扣款 · Sandbox, no real money</span>\n{body}</main>\n\
         {script}\n</body>\n</html>\n"
    )
}

/// The sandbox cashier (`GET /sandbox/cashier/{paymentId}`): the merchant, the amount in yuan,
/// the order number and, while open, Pay / Fail / Cancel buttons that POST `{outcome}` to
/// `/sandbox/api/pay/{paymentId}` and then go to the answered `returnUrl` (read from the body
/// or from the API envelope's `data`). A settled or closed attempt shows its state instead.
/// Served as `text/html; charset=utf-8`; its script and style are files of their own.
pub fn cashier_page(view: &CashierView) -> String {
    let pay_url = format!("/sandbox/api/pay/{}", encode_component(&view.payment_id));
    let left_ms = (view.expires_at - view.now).max(0);
    let open = view.state == CashierState::Open && left_ms > 0;
    let state = match view.state {
        CashierState::Open if open => "",
        CashierState::Open | CashierState::Closed => "交易已关闭 · This payment is closed",
        CashierState::Paid => "已支付 · Paid",
        CashierState::Failed => "支付失败 · Payment failed",
        CashierState::Cancelled => "已取消 · Cancelled",
    };
    let bottom = if open {
        let seconds = left_ms / 1000;
        format!(
            "<dt>剩余时间<span class=\"en\">Time left</span></dt><dd id=\"left\">{:02}:{:02}</dd>\n</dl>\n\
             <div class=\"actions\">\n\
             <button type=\"button\" class=\"pay\" data-outcome=\"success\">确认支付 · Pay</button>\n\
             <button type=\"button\" class=\"fail\" data-outcome=\"fail\">支付失败 · Fail</button>\n\
             <button type=\"button\" class=\"cancel\" data-outcome=\"cancel\">取消支付 · Cancel</button>\n\
             </div>\n",
            seconds / 60,
            seconds % 60
        )
    } else {
        format!("</dl>\n<p class=\"state\">{state}</p>\n")
    };
    let body = format!(
        "<section class=\"card\">\n<p class=\"merchant\">{merchant}</p>\n\
         <p class=\"amount\"><small>¥</small>{amount}</p>\n<p class=\"subject\">{subject}</p>\n<dl>\n\
         <dt>订单号<span class=\"en\">Order no.</span></dt><dd>{order_no}</dd>\n\
         <dt>支付方式<span class=\"en\">Method</span></dt><dd>{method}</dd>\n\
         {bottom}<p id=\"msg\" role=\"status\" aria-live=\"polite\"></p>\n</section>\n",
        merchant = escape(MERCHANT_NAME),
        amount = view.amount,
        subject = escape(&view.subject),
        order_no = escape(&view.order_no),
        method = method_label(view.method),
    );
    page(
        &format!("收银台 · Cashier · {}", escape(MERCHANT_NAME)),
        &format!(
            " data-pay-url=\"{}\" data-left-ms=\"{left_ms}\"",
            escape(&pay_url)
        ),
        &body,
        open,
    )
}

/// The cashier for an unknown payment id (serve it with 404).
pub fn cashier_not_found_page() -> String {
    page(
        &format!("收银台 · Cashier · {}", escape(MERCHANT_NAME)),
        "",
        "<section class=\"card\">\n<p class=\"state\">支付单不存在 · No such payment</p>\n</section>\n",
        false,
    )
}

"""Places one order as the demo customer, for the schema check to reach the order operations
with a real order number: a pickup booked at the first store that takes bookings, in one of
the slots it offers (so the time of day does not matter); and an address at the flagship's door.
Prints the order number and the address id.

    python3 tests/schema/seed_order.py http://127.0.0.1:8080 13800000000 Schema2026ok
"""
import json, sys, urllib.request, urllib.error, uuid
base, phone, password = sys.argv[1:4]
def call(method, path, body=None, token=None, headers=None):
    req = urllib.request.Request(base + path, method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json", **({"Authorization": "Bearer " + token} if token else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(req) as r: return json.load(r)
    except urllib.error.HTTPError as e: return json.load(e)
token = call("POST", "/api/v1/auth/login", {"cellPhone": phone, "password": password})["data"]["token"]
flagship = call("GET", "/api/v1/stores/SH001")["data"]
address = call("POST", "/api/v1/addresses", {"name": "张三", "phone": "13812345678",
    "baseAddress": "上海市黄浦区西藏中路236号", "houseNumber": "5楼501", "cityName": "上海市",
    "lat": f"{flagship['lat']:.6f}", "lng": f"{flagship['lng']:.6f}"}, token)
if address["errCode"] != "00":
    print("address", address["errMsg"], file=sys.stderr); sys.exit(1)
address_id = address["data"]["id"]
for store in call("GET", "/api/v1/stores/search")["data"]:
    code = store["storeCode"]
    slots = call("GET", f"/api/v1/orders/reservation/slots?storeCode={code}&orderType=1")
    days = (slots.get("data") or {}).get("days") or []
    times = [t for d in days for t in d.get("slots", [])]
    if not times:
        continue
    call("DELETE", "/api/v1/cart", token=token)
    added = call("POST", "/api/v1/cart/items", {"storeCode": code, "serviceMethod": 1, "items": [{"productCode": "DR001", "quantity": 2}]}, token)
    cart = call("POST", "/api/v1/orders/reservation", {"orderType": 1, "storeCode": code, "isBookOrder": True, "orderTime": times[len(times)//2]}, token)
    if cart["errCode"] != "00":
        print("reservation", code, cart["errMsg"], file=sys.stderr); continue
    c = cart["data"]
    body = {"orderType": 1, "isBookOrder": True, "plannedDeliverTime": c["orderTime"], "paymentType": "online", "tableware": 1,
            "orderProductAmount": c["priceOfProduct"], "activityAmount": c["discountAmount"],
            "freightAmount": c["deliveryFeeAfterPE"], "orderAmount": c["orderAmount"], "shoppingCarVersion": c["shoppingCarVersion"]}
    order = call("POST", "/api/v1/orders", body, token, {"Idempotency-Key": str(uuid.uuid4())})
    if order["errCode"] == "00":
        print(order["data"]["orderNo"], address_id); sys.exit(0)
    print("submit", code, order["errCode"], order["errMsg"], file=sys.stderr)
sys.exit(1)

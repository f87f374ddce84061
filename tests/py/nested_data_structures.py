db = {
    "users": [
        {"name": "ann", "roles": ["admin", "dev"], "meta": {"age": 30}},
        {"name": "bob", "roles": ["dev"], "meta": {"age": 25}},
        {"name": "cy", "roles": [], "meta": {"age": 35}},
    ]
}
print([u["name"] for u in db["users"] if "dev" in u["roles"]])
print(sum(u["meta"]["age"] for u in db["users"]) / len(db["users"]))
db["users"][2]["roles"].append("ops")
print(db["users"][2], sorted(db["users"], key=lambda u: -u["meta"]["age"])[0]["name"])
index = {r: [u["name"] for u in db["users"] if r in u["roles"]] for r in ["admin", "dev", "ops"]}
print(index)
print(db)

//! The catalogue repository: loads the whole catalogue (it is small and read-mostly) and
//! writes the seed. Each row holds its domain document; columns carry what is queried.

use super::{now_ms, Db, DbError};
use crate::domain::catalogue::{Bilingual, Catalogue, Category, City, District, Product, Store};
use crate::domain::pricing::promotion::Promotion;
use sqlx::Row;
use tracing::instrument;

#[derive(Clone, Debug)]
pub struct CatalogueRepo {
    db: Db,
}

impl CatalogueRepo {
    pub fn new(db: Db) -> CatalogueRepo {
        CatalogueRepo { db }
    }

    pub async fn store_count(&self) -> Result<i64, DbError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM stores")
            .fetch_one(self.db.pool())
            .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }

    /// Every city, district, store, category, product and hot word, in their stored order.
    #[instrument(skip(self))]
    pub async fn load(&self) -> Result<Catalogue, DbError> {
        let pool = self.db.pool();
        let cities = docs::<City>(pool, "SELECT doc FROM cities ORDER BY sort, city_code").await?;
        let districts = docs::<District>(
            pool,
            "SELECT doc FROM districts ORDER BY city_code, sort, district_code",
        )
        .await?;
        let stores = docs::<Store>(pool, "SELECT doc FROM stores ORDER BY store_code").await?;
        let categories = docs::<Category>(
            pool,
            "SELECT doc FROM categories ORDER BY sort, category_code",
        )
        .await?;
        let products =
            docs::<Product>(pool, "SELECT doc FROM products ORDER BY sort, product_code").await?;
        let hot_words = sqlx::query("SELECT word_cn, word_en FROM hot_words ORDER BY sort")
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|row| {
                Ok(Bilingual {
                    cn: row.try_get("word_cn")?,
                    en: row.try_get("word_en")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let promotions =
            docs::<Promotion>(pool, "SELECT doc FROM promotions ORDER BY sort, rule_id").await?;
        Ok(Catalogue {
            cities,
            districts,
            stores,
            categories,
            products,
            hot_words,
            promotions,
        })
    }

    /// Writes the catalogue in one transaction; rows already there are replaced, so seeding
    /// twice is harmless.
    #[instrument(skip_all, fields(stores = catalogue.stores.len(), products = catalogue.products.len()))]
    pub async fn upsert(&self, catalogue: &Catalogue) -> Result<(), DbError> {
        let now = now_ms();
        let mut tx = self.db.pool().begin().await?;
        for (sort, city) in catalogue.cities.iter().enumerate() {
            sqlx::query(
                "INSERT INTO cities (city_code, sort, doc) VALUES ($1, $2, $3) \
                 ON CONFLICT (city_code) DO UPDATE SET sort = excluded.sort, doc = excluded.doc",
            )
            .bind(&city.city_code)
            .bind(sort as i64)
            .bind(serde_json::to_string(city)?)
            .execute(&mut *tx)
            .await?;
        }
        for (sort, district) in catalogue.districts.iter().enumerate() {
            sqlx::query(
                "INSERT INTO districts (district_code, city_code, sort, doc) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (district_code) DO UPDATE SET city_code = excluded.city_code, \
                 sort = excluded.sort, doc = excluded.doc",
            )
            .bind(&district.district_code)
            .bind(&district.city_code)
            .bind(sort as i64)
            .bind(serde_json::to_string(district)?)
            .execute(&mut *tx)
            .await?;
        }
        for store in &catalogue.stores {
            sqlx::query(
                "INSERT INTO stores (store_code, city_code, district_code, group_code, is_default, doc, version, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, 1, $7) \
                 ON CONFLICT (store_code) DO UPDATE SET city_code = excluded.city_code, \
                 district_code = excluded.district_code, group_code = excluded.group_code, \
                 is_default = excluded.is_default, doc = excluded.doc, \
                 version = stores.version + 1, updated_at = excluded.updated_at",
            )
            .bind(&store.store_code)
            .bind(&store.city_code)
            .bind(&store.district_code)
            .bind(&store.group_code)
            .bind(i64::from(store.is_default))
            .bind(serde_json::to_string(store)?)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        for category in &catalogue.categories {
            sqlx::query(
                "INSERT INTO categories (category_code, sort, doc) VALUES ($1, $2, $3) \
                 ON CONFLICT (category_code) DO UPDATE SET sort = excluded.sort, doc = excluded.doc",
            )
            .bind(&category.category_code)
            .bind(i64::from(category.sort))
            .bind(serde_json::to_string(category)?)
            .execute(&mut *tx)
            .await?;
        }
        for product in &catalogue.products {
            sqlx::query(
                "INSERT INTO products (product_code, category_code, sort, doc, updated_at) \
                 VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (product_code) DO UPDATE SET category_code = excluded.category_code, \
                 sort = excluded.sort, doc = excluded.doc, updated_at = excluded.updated_at",
            )
            .bind(&product.product_code)
            .bind(&product.category_code)
            .bind(i64::from(product.sort))
            .bind(serde_json::to_string(product)?)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("DELETE FROM hot_words")
            .execute(&mut *tx)
            .await?;
        for (sort, word) in catalogue.hot_words.iter().enumerate() {
            sqlx::query("INSERT INTO hot_words (sort, word_cn, word_en) VALUES ($1, $2, $3)")
                .bind(sort as i64)
                .bind(&word.cn)
                .bind(&word.en)
                .execute(&mut *tx)
                .await?;
        }
        for promotion in &catalogue.promotions {
            sqlx::query(
                "INSERT INTO promotions (rule_id, sort, doc, updated_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (rule_id) DO UPDATE SET sort = excluded.sort, doc = excluded.doc, \
                 updated_at = excluded.updated_at",
            )
            .bind(&promotion.rule_id)
            .bind(i64::from(promotion.sort))
            .bind(serde_json::to_string(promotion)?)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

async fn docs<T: serde::de::DeserializeOwned>(
    pool: &sqlx::AnyPool,
    sql: &str,
) -> Result<Vec<T>, DbError> {
    let rows = sqlx::query(sql).fetch_all(pool).await?;
    rows.iter()
        .map(|row| {
            let doc: String = row.try_get("doc")?;
            Ok(serde_json::from_str(&doc)?)
        })
        .collect()
}

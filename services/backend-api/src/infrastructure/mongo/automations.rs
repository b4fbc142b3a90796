//! Automations in MongoDB: one document per automation (indexes on `id`, the owner's
//! list, `triggers.id` and `next_fire`, the scheduler's query), one per history entry,
//! (trimmed to the newest after each), and `{trigger, key, run,
//! taken_at}` per webhook delivery taken (unique on trigger and key; a TTL index drops
//! it once past [`DELIVERY_KEY_KEPT`], and one found past it meanwhile is taken over).
//! A claim is one conditional update on `(id, next_fire)`, so racing replicas cannot
//! both win it. A new automation is inserted, then its owner's are counted and it is
//! removed again when past the cap, so creations racing for the last place cannot both
//! keep one.

use chrono::{DateTime, Utc};
use mongodb::bson::{doc, Bson, Document};
use mongodb::options::IndexOptions;
use mongodb::{Collection, Database, IndexModel};

use super::automation_files::{self, files};
use super::{all, failure, is_duplicate_key, MongoStore};
use crate::domain::automation::{delivery_key_expired, Automation, AutomationRun, DELIVERY_KEY_KEPT};
use crate::domain::ids::{AutomationId, RunId, TriggerId};
use crate::domain::ports::AutomationRepository;
use crate::domain::user::UserId;
use crate::domain::DomainResult;

/// Creates the indexes the queries below rely on.
pub(super) async fn create_indexes(db: &Database) -> mongodb::error::Result<()> {
    let index = |keys, unique| {
        IndexModel::builder()
            .keys(keys)
            .options(IndexOptions::builder().unique(unique).build())
            .build()
    };
    db.collection::<Document>("automations")
        .create_indexes([
            index(doc! { "id": 1 }, true),
            index(doc! { "owner": 1, "id": 1 }, false),
            index(doc! { "triggers.id": 1 }, false),
            index(doc! { "next_fire": 1 }, false),
        ])
        .await?;
    db.collection::<Document>("automation_runs")
        .create_index(index(doc! { "automation": 1, "id": -1 }, true))
        .await?;
    let expire = IndexOptions::builder()
        .expire_after(DELIVERY_KEY_KEPT.to_std().ok())
        .build();
    db.collection::<Document>("automation_deliveries")
        .create_indexes([
            index(doc! { "trigger": 1, "key": 1 }, true),
            IndexModel::builder()
                .keys(doc! { "taken_at": 1 })
                .options(expire)
                .build(),
        ])
        .await?;
    automation_files::create_indexes(db).await
}

impl MongoStore {
    /// Removes a new automation its creation refused; a failure is logged (the caller is
    /// told it was not made either way).
    async fn withdraw(&self, automation: &Automation) {
        let removed = self
            .automations()
            .delete_one(doc! { "id": automation.id.as_str() })
            .await;
        if let Err(err) = removed {
            tracing::warn!(automation = automation.id.as_str(), %err, "withdrawing a refused automation");
        }
    }

    fn automations(&self) -> Collection<Automation> {
        self.db.collection("automations")
    }

    fn automation_runs(&self) -> Collection<AutomationRun> {
        self.db.collection("automation_runs")
    }
}

/// The run that took the delivery `key` of `trigger`, if one did.
async fn delivery_run(
    deliveries: &Collection<Document>,
    trigger: &TriggerId,
    key: &str,
) -> DomainResult<Option<RunId>> {
    let taken = deliveries
        .find_one(doc! { "trigger": trigger.as_str(), "key": key })
        .await
        .map_err(failure)?;
    taken
        .and_then(|doc| doc.get_str("run").ok().map(RunId::parse))
        .transpose()
}

fn millis(at: Option<DateTime<Utc>>) -> Bson {
    at.map_or(Bson::Null, |at| Bson::Int64(at.timestamp_millis()))
}

#[async_trait::async_trait]
impl AutomationRepository for MongoStore {
    async fn insert(&self, automation: &Automation, max_per_owner: usize) -> DomainResult<bool> {
        self.automations().insert_one(automation).await.map_err(failure)?;
        // Inserted, then counted: one that finds its owner past the cap goes again. The
        // last of any kept ones counted them all, so no more than the cap stay (creations
        // racing for the last place may all be refused; each may try again). One that
        // could not be counted goes too.
        let held = self
            .automations()
            .count_documents(doc! { "owner": automation.owner.as_str() })
            .await;
        let kept = match held {
            Ok(held) => usize::try_from(held).is_ok_and(|held| held <= max_per_owner),
            Err(err) => {
                self.withdraw(automation).await;
                return Err(failure(err));
            }
        };
        if !kept {
            self.withdraw(automation).await;
        }
        Ok(kept)
    }

    async fn get(&self, id: &AutomationId) -> DomainResult<Option<Automation>> {
        self.automations()
            .find_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)
    }

    async fn replace(&self, automation: &Automation, expected: Option<DateTime<Utc>>) -> DomainResult<bool> {
        let replaced = self
            .automations()
            .replace_one(
                doc! {
                    "id": automation.id.as_str(),
                    "next_fire": millis(expected),
                    "revision": automation.revision.saturating_sub(1) as i64,
                },
                automation,
            )
            .await
            .map_err(failure)?;
        Ok(replaced.matched_count == 1)
    }

    async fn delete(&self, id: &AutomationId) -> DomainResult<bool> {
        let Some(old) = self.get(id).await? else {
            return Ok(false);
        };
        self.automations()
            .delete_one(doc! { "id": id.as_str() })
            .await
            .map_err(failure)?;
        self.automation_runs()
            .delete_many(doc! { "automation": id.as_str() })
            .await
            .map_err(failure)?;
        let triggers: Vec<&str> = old.triggers.iter().map(|t| t.id.as_str()).collect();
        self.db
            .collection::<Document>("automation_deliveries")
            .delete_many(doc! { "trigger": { "$in": triggers } })
            .await
            .map_err(failure)?;
        files(&self.db)
            .delete_many(doc! { "automation": id.as_str() })
            .await
            .map_err(failure)?;
        Ok(true)
    }

    async fn list_for(&self, owner: &UserId) -> DomainResult<Vec<Automation>> {
        all(self
            .automations()
            .find(doc! { "owner": owner.as_str() })
            .sort(doc! { "id": 1 }))
        .await
    }

    async fn by_trigger(&self, trigger: &TriggerId) -> DomainResult<Option<Automation>> {
        self.automations()
            .find_one(doc! { "triggers.id": trigger.as_str() })
            .await
            .map_err(failure)
    }

    async fn due(&self, now: DateTime<Utc>, limit: usize) -> DomainResult<Vec<Automation>> {
        all(self
            .automations()
            .find(doc! { "next_fire": { "$lte": now.timestamp_millis() } })
            .sort(doc! { "next_fire": 1 })
            .limit(i64::try_from(limit).unwrap_or(i64::MAX)))
        .await
    }

    async fn earliest_fire(&self) -> DomainResult<Option<DateTime<Utc>>> {
        // Only the field, from the index: the scheduler asks at every wake.
        let first = self
            .db
            .collection::<Document>("automations")
            .find_one(doc! { "next_fire": { "$ne": Bson::Null } })
            .sort(doc! { "next_fire": 1 })
            .projection(doc! { "_id": 0, "next_fire": 1 })
            .await
            .map_err(failure)?;
        let millis = first.and_then(|fields| fields.get_i64("next_fire").ok());
        Ok(millis.and_then(DateTime::from_timestamp_millis))
    }

    async fn claim(
        &self,
        id: &AutomationId,
        due: DateTime<Utc>,
        next: Option<DateTime<Utc>>,
    ) -> DomainResult<bool> {
        let updated = self
            .automations()
            .update_one(
                doc! { "id": id.as_str(), "next_fire": due.timestamp_millis() },
                doc! { "$set": { "next_fire": millis(next) } },
            )
            .await
            .map_err(failure)?;
        Ok(updated.modified_count == 1)
    }

    async fn put_run(&self, run: &AutomationRun) -> DomainResult<()> {
        self.automation_runs()
            .replace_one(
                doc! { "automation": run.automation.as_str(), "id": run.id.as_str() },
                run,
            )
            .upsert(true)
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn trim_runs(&self, id: &AutomationId, keep: usize) -> DomainResult<()> {
        // The newest entry past those kept, if there is one: it and older ones go.
        let entries = self.db.collection::<Document>("automation_runs");
        let past = entries
            .find_one(doc! { "automation": id.as_str() })
            .sort(doc! { "id": -1 })
            .skip(u64::try_from(keep).unwrap_or(u64::MAX))
            .projection(doc! { "_id": 0, "id": 1 })
            .await
            .map_err(failure)?;
        if let Some(past) = past.as_ref().and_then(|entry| entry.get_str("id").ok()) {
            entries
                .delete_many(doc! { "automation": id.as_str(), "id": { "$lte": past } })
                .await
                .map_err(failure)?;
        }
        Ok(())
    }

    async fn runs(&self, id: &AutomationId, limit: usize) -> DomainResult<Vec<AutomationRun>> {
        all(self
            .automation_runs()
            .find(doc! { "automation": id.as_str() })
            .sort(doc! { "id": -1 })
            .limit(i64::try_from(limit).unwrap_or(i64::MAX)))
        .await
    }

    async fn first_delivery(
        &self,
        trigger: &TriggerId,
        key: &str,
        run: &RunId,
    ) -> DomainResult<Option<RunId>> {
        let deliveries = self.db.collection::<Document>("automation_deliveries");
        let now = Utc::now();
        let delivery = doc! {
            "trigger": trigger.as_str(), "key": key, "run": run.as_str(),
            "taken_at": mongodb::bson::DateTime::from_millis(now.timestamp_millis()),
        };
        match deliveries.insert_one(delivery.clone()).await {
            Ok(_) => Ok(None),
            Err(err) if is_duplicate_key(&err) => {
                let Some(earlier) = delivery_run(&deliveries, trigger, key).await? else {
                    return Ok(None);
                };
                if !delivery_key_expired(&earlier, now) {
                    return Ok(Some(earlier));
                }
                // Expired, not yet dropped by the TTL monitor: taken over, unless
                // another delivery took it over first.
                let taken = deliveries
                    .replace_one(
                        doc! { "trigger": trigger.as_str(), "key": key, "run": earlier.as_str() },
                        delivery,
                    )
                    .await
                    .map_err(failure)?;
                if taken.modified_count == 1 {
                    return Ok(None);
                }
                delivery_run(&deliveries, trigger, key).await
            }
            Err(err) => Err(failure(err)),
        }
    }

    async fn forget_delivery(&self, trigger: &TriggerId, key: &str, run: &RunId) -> DomainResult<()> {
        self.db
            .collection::<Document>("automation_deliveries")
            .delete_one(doc! { "trigger": trigger.as_str(), "key": key, "run": run.as_str() })
            .await
            .map_err(failure)?;
        Ok(())
    }

    async fn run(&self, id: &AutomationId, run: &RunId) -> DomainResult<Option<AutomationRun>> {
        self.automation_runs()
            .find_one(doc! { "automation": id.as_str(), "id": run.as_str() })
            .await
            .map_err(failure)
    }
}

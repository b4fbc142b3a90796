//! Deleting a chat removes the servers registered in it from the store (either store),
//! and only its own: a registration of another chat stays.

use std::path::Path;

use reqwest::{Method, StatusCode};

use super::make_greet;
use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::manager::Manager;
use crate::support::{borrowed, shared_stores, store_name, TestApp};

/// How many registrations the store holds for `session`; the embedded store is read
/// with its server stopped.
async fn registrations(data_dir: &Path, session: &str) -> usize {
    match shared_stores() {
        None => {
            use redb::{ReadableDatabase, ReadableTable, TableDefinition};
            let servers: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("agent_servers");
            let db = redb::Database::open(data_dir.join("sandpiper.redb")).unwrap();
            let txn = db.begin_read().unwrap();
            let table = txn.open_table(servers).unwrap();
            let rows = table.iter().unwrap().map(Result::unwrap);
            rows.filter(|(key, _)| key.value().0 == session).count()
        }
        Some((uri, _)) => {
            use mongodb::bson::{doc, Document};
            let client = mongodb::Client::with_uri_str(&uri).await.unwrap();
            let db = client.database(&store_name(data_dir));
            let servers = db.collection::<Document>("agent_servers");
            let count = servers.count_documents(doc! { "session_id": session }).await;
            count.unwrap() as usize
        }
    }
}

#[tokio::test]
async fn deleting_a_chat_removes_its_registrations_only() {
    let mut replies = make_greet();
    replies.push(Reply::Text("Made one."));
    replies.extend(make_greet());
    replies.push(Reply::Text("Made another."));
    let llm = FakeLlm::start(replies).await;
    let manager = Manager::start();
    let mut settings = llm.settings();
    settings.extend(manager.settings());
    let mut app = TestApp::spawn(&borrowed(&settings)).await;
    let (bob, _, _) = app.register("bob@example.org").await;
    let (gone, kept) = (app.new_session(&bob).await, app.new_session(&bob).await);
    for chat in [&gone, &kept] {
        let made = app.turn(&bob, chat, "Make a greeter").await;
        assert_eq!(made.last().unwrap()["status"], "completed", "{made:#?}");
    }
    let data = app.take_data().unwrap();
    app.stop().await;
    assert_eq!(registrations(data.path(), &gone).await, 1);

    let mut app = TestApp::spawn_on(data.path(), &borrowed(&settings)).await;
    let path = format!("/api/v1/sessions/{gone}");
    app.expect(StatusCode::NO_CONTENT, Method::DELETE, &path, Some(&bob), None)
        .await;
    app.stop().await;
    assert_eq!(registrations(data.path(), &gone).await, 0);
    assert_eq!(registrations(data.path(), &kept).await, 1);
}

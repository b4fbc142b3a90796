//! Listing rented sandboxes as E2B does, in real sandboxes: newest first unless
//! `order=asc`, `X-Next-Token` following on in either order (also when the sandbox a page
//! ended at is gone meanwhile), `startedAfter` and `template` filtering; and a timeout of
//! 0, set or created with, ending a sandbox, or pausing one that asked for that, before
//! the call answers.
//!
//! Needs the Docker engine and the sandbox-manager binary, like `e2b_sandboxes`.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::e2b::{e2b, key};
use crate::e2b_sandboxes::{backend, containers_of, running_of};
use crate::support::manager::Manager;
use crate::support::TestApp;

/// One page of `GET /v2/sandboxes?{query}`: the ids listed and the next token.
async fn page(app: &TestApp, key: &str, query: &str) -> (Vec<String>, Option<String>) {
    let response = reqwest::Client::new()
        .get(format!("{}/e2b/v2/sandboxes?{query}", app.base))
        .header("x-api-key", key)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{query}");
    let next = response
        .headers()
        .get("x-next-token")
        .map(|token| token.to_str().unwrap().to_owned());
    let listed: Value = response.json().await.unwrap();
    let ids = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|sandbox| sandbox["sandboxID"].as_str().unwrap().to_owned())
        .collect();
    (ids, next)
}

/// Every page of `query`, one sandbox a page.
async fn all_pages(app: &TestApp, key: &str, query: &str) -> Vec<String> {
    let (mut ids, mut next) = page(app, key, &format!("{query}&limit=1")).await;
    while let Some(token) = next {
        let token = url::form_urlencoded::byte_serialize(token.as_bytes()).collect::<String>();
        let (more, after) = page(app, key, &format!("{query}&limit=1&nextToken={token}")).await;
        assert_eq!(more.len(), 1, "a token is given only when more follow");
        ids.extend(more);
        next = after;
    }
    ids
}

/// A new sandbox of `template` labelled `suite=list`; its id and `startedAt`.
async fn made(app: &TestApp, key: &str, template: &str, auto_pause: bool) -> (String, String) {
    let body = json!({
        "templateID": template, "timeout": 300, "autoPause": auto_pause,
        "metadata": { "suite": "list" },
    });
    let (status, made) = e2b(app, Method::POST, "/v2/sandboxes", Some(key), Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let id = made["sandboxID"].as_str().unwrap().to_owned();
    let (_, detail) = e2b(app, Method::GET, &format!("/sandboxes/{id}"), Some(key), None).await;
    (id, detail["startedAt"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_listing_is_newest_first_paged_in_either_order_and_filtered() {
    let manager = Manager::start();
    let app = backend(&manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let ada = key(&app, &token, "sandboxes").await;
    let mut ids = Vec::new();
    let mut started = Vec::new();
    for template in ["base", "desktop", "base"] {
        let (id, at) = made(&app, &ada, template, false).await;
        ids.push(id);
        started.push(at);
    }
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    let suite = "metadata=suite%3Dlist";

    assert_eq!(page(&app, &ada, suite).await, (newest_first.clone(), None));
    assert_eq!(all_pages(&app, &ada, suite).await, newest_first);
    assert_eq!(
        all_pages(&app, &ada, &format!("{suite}&order=desc")).await,
        newest_first
    );
    assert_eq!(all_pages(&app, &ada, &format!("{suite}&order=asc")).await, ids);

    // The cursor is where the page ended, not a sandbox that must still be there.
    let (first, next) = page(&app, &ada, &format!("{suite}&limit=1")).await;
    assert_eq!(first, [ids[2].clone()]);
    let (status, _) = e2b(
        &app,
        Method::DELETE,
        &format!("/sandboxes/{}", ids[2]),
        Some(&ada),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let token = url::form_urlencoded::byte_serialize(next.unwrap().as_bytes()).collect::<String>();
    let (rest, _) = page(&app, &ada, &format!("{suite}&nextToken={token}")).await;
    assert_eq!(rest, [ids[1].clone(), ids[0].clone()]);
    let (ids, started) = (&ids[..2], &started[..2]);

    // Started at or after a time, written as E2B's SDKs write it (an offset, encoded).
    let at = |text: &str| {
        let at = chrono::DateTime::parse_from_rfc3339(text).unwrap();
        let shifted = at.with_timezone(&chrono::FixedOffset::east_opt(3600).unwrap());
        url::form_urlencoded::byte_serialize(shifted.to_rfc3339().as_bytes()).collect::<String>()
    };
    let after_second = format!("{suite}&startedAfter={}", at(&started[1]));
    assert_eq!(page(&app, &ada, &after_second).await.0, [ids[1].clone()]);
    let after_first = format!("{suite}&startedAfter={}&order=asc", at(&started[0]));
    assert_eq!(page(&app, &ada, &after_first).await.0, ids);
    let later = chrono::DateTime::parse_from_rfc3339(&started[1]).unwrap() + chrono::Duration::seconds(1);
    let none_after = format!("{suite}&startedAfter={}", at(&later.to_rfc3339()));
    assert_eq!(page(&app, &ada, &none_after).await.0, Vec::<String>::new());

    // By template, by any of its names; a name that is no template's finds none.
    for (template, expected) in [
        ("desktop", vec![ids[1].clone()]),
        ("base", vec![ids[0].clone()]),
        ("code-interpreter-v1", vec![]),
        ("unknown-template", vec![]),
    ] {
        let query = format!("{suite}&template={template}");
        assert_eq!(page(&app, &ada, &query).await.0, expected, "{template}");
    }
}

#[tokio::test]
async fn a_timeout_of_zero_set_or_created_with_ends_it_or_pauses_it_before_answering() {
    let manager = Manager::start();
    let app = backend(&manager).await;
    let (token, _, _) = app.register("ada@example.org").await;
    let ada = key(&app, &token, "sandboxes").await;
    let now = Some(json!({ "timeout": 0 }));

    let (ended, _) = made(&app, &ada, "base", false).await;
    let path = format!("/sandboxes/{ended}");
    let (status, body) = e2b(
        &app,
        Method::POST,
        &format!("{path}/timeout"),
        Some(&ada),
        now.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(
        e2b(&app, Method::GET, &path, Some(&ada), None).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(containers_of(&manager, &ended).await, 0);

    let (paused, _) = made(&app, &ada, "base", true).await;
    let path = format!("/sandboxes/{paused}");
    let (status, body) = e2b(&app, Method::POST, &format!("{path}/timeout"), Some(&ada), now).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(
        e2b(&app, Method::GET, &path, Some(&ada), None).await.1["state"],
        "paused"
    );
    assert!(
        running_of(&manager, &paused).await.is_empty(),
        "its container stopped"
    );
    let (status, _) = e2b(&app, Method::DELETE, &path, Some(&ada), None).await;
    assert_eq!(status, StatusCode::NO_CONTENT);

    // Created with a timeout of 0: handed out, and already ended or paused.
    for auto_pause in [false, true] {
        let body = json!({ "templateID": "base", "timeout": 0, "autoPause": auto_pause });
        let (status, made) = e2b(&app, Method::POST, "/v2/sandboxes", Some(&ada), Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["sandboxID"].as_str().unwrap().to_owned();
        let path = format!("/sandboxes/{id}");
        let (status, detail) = e2b(&app, Method::GET, &path, Some(&ada), None).await;
        if auto_pause {
            assert_eq!(
                (status, detail["state"].as_str()),
                (StatusCode::OK, Some("paused")),
                "{detail}"
            );
            assert!(
                running_of(&manager, &id).await.is_empty(),
                "its container stopped"
            );
            let (status, _) = e2b(&app, Method::DELETE, &path, Some(&ada), None).await;
            assert_eq!(status, StatusCode::NO_CONTENT);
        } else {
            assert_eq!(status, StatusCode::NOT_FOUND, "{detail}");
            assert_eq!(containers_of(&manager, &id).await, 0, "its container was removed");
        }
    }
}

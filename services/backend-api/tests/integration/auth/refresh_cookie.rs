//! The refresh token lives in a cookie no script can read, as an attacker would probe
//! it: no answer's JSON carries it; the cookie is `HttpOnly`, `SameSite=Strict`, sent to
//! refresh and logout only, `Secure` on https; refresh rotates it and a spent one ends
//! the family; requests another site's page could make (a form's content type, a
//! foreign `Origin`) are refused before the cookie is looked at; logout revokes and
//! clears it.

use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde_json::{json, Value};

use crate::support::{refresh_cookie, refresh_cookie_lines, TestApp, PASSWORD, REFRESH_COOKIE};

const ADA: &str = "ada@example.org";
const THIRTY_DAYS: u64 = 30 * 24 * 60 * 60;

async fn login(app: &TestApp, extra: &[(&str, &str)]) -> Response {
    let mut request = app.http.post(format!("{}/api/v1/auth/login", app.base));
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let response = request
        .json(&json!({ "email": ADA, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response
}

/// A request to a cookie route carrying `cookie`, built further by `with`.
async fn with_cookie(
    app: &TestApp,
    path: &str,
    cookie: &str,
    with: impl FnOnce(RequestBuilder) -> RequestBuilder,
) -> Response {
    let request = app
        .http
        .post(format!("{}{path}", app.base))
        .header("cookie", format!("{REFRESH_COOKIE}={cookie}"));
    with(request).send().await.unwrap()
}

/// The error body of a refusal, checked to be JSON with this status and code.
async fn refused(response: Response, status: StatusCode, code: &str) -> String {
    assert_eq!(response.status(), status);
    let body: Value = response.json().await.expect("a JSON error");
    assert_eq!(body["error"]["code"], code, "{body}");
    body["error"]["message"].as_str().unwrap().to_owned()
}

fn assert_cleared(response: &Response) {
    let lines = refresh_cookie_lines(response);
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        assert!(line.starts_with(&format!("{REFRESH_COOKIE}=;")), "{line}");
        assert!(line.contains("; Max-Age=0"), "{line}");
    }
}

#[tokio::test]
async fn sign_in_answers_carry_no_refresh_token_and_set_a_strict_http_only_cookie() {
    let app = TestApp::spawn(&[]).await;
    let (_, registered, _) = app.register(ADA).await;
    let response = login(&app, &[]).await;
    let lines = refresh_cookie_lines(&response);
    let token = refresh_cookie(&response).unwrap();
    assert_ne!(token, registered, "each sign-in is a family of its own");
    let body = response.text().await.unwrap();
    assert!(
        !body.contains("refresh_token") && !body.contains(&token),
        "{body}"
    );
    let body: Value = serde_json::from_str(&body).unwrap();
    assert!(body["tokens"]["access_token"].is_string());

    // One cookie per route that reads it, and none for any other path.
    let mut paths: Vec<&str> = lines
        .iter()
        .map(|line| {
            let attributes: Vec<&str> = line.split("; ").skip(1).collect();
            assert!(attributes.contains(&"HttpOnly"), "{line}");
            assert!(attributes.contains(&"SameSite=Strict"), "{line}");
            assert!(
                attributes.contains(&format!("Max-Age={THIRTY_DAYS}").as_str()),
                "{line}"
            );
            // Plain http, as on a developer's machine: a Secure cookie would be dropped.
            assert!(!attributes.contains(&"Secure"), "{line}");
            attributes.iter().find_map(|a| a.strip_prefix("Path=")).unwrap()
        })
        .collect();
    paths.sort();
    assert_eq!(paths, ["/api/v1/auth/logout", "/api/v1/auth/refresh"]);

    // A password change answers with an access token only, and sets a new cookie.
    let token = body["tokens"]["access_token"].as_str().unwrap();
    let change = app
        .call(
            Method::POST,
            "/api/v1/auth/password",
            Some(token),
            Some(json!({ "current_password": PASSWORD, "new_password": "a much better passphrase" })),
        )
        .await;
    assert_eq!(change.status(), StatusCode::OK);
    let fresh = refresh_cookie(&change).expect("a password change sets the cookie");
    let body = change.text().await.unwrap();
    assert!(
        !body.contains("refresh_token") && !body.contains(&fresh),
        "{body}"
    );
    assert_eq!(app.refresh(&fresh).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_cookie_is_secure_on_https_pages_behind_a_trusted_https_proxy_or_when_set() {
    let secure = |response: &Response| {
        let lines = refresh_cookie_lines(response);
        assert_eq!(lines.len(), 2);
        lines.iter().all(|line| line.ends_with("; Secure"))
    };
    let app = TestApp::spawn(&[]).await;
    app.register(ADA).await;
    let origin = app.base.replace("http://", "https://");
    assert!(secure(&login(&app, &[("origin", &origin)]).await));
    // No proxy is trusted: a client's own `X-Forwarded-Proto` is no proof.
    assert!(!secure(&login(&app, &[("x-forwarded-proto", "https")]).await));

    let proxied = TestApp::spawn(&[("http.trusted_proxies", "127.0.0.1")]).await;
    proxied.register(ADA).await;
    assert!(secure(&login(&proxied, &[("x-forwarded-proto", "https")]).await));
    assert!(!secure(&login(&proxied, &[("x-forwarded-proto", "http")]).await));

    let always = TestApp::spawn(&[("http.secure_cookies", "true")]).await;
    always.register(ADA).await;
    assert!(secure(&login(&always, &[]).await));
}

#[tokio::test]
async fn refresh_rotates_the_cookie_and_a_spent_one_ends_the_family() {
    let app = TestApp::spawn(&[]).await;
    let (_, first, _) = app.register(ADA).await;
    let response = app.refresh(&first).await;
    assert_eq!(response.status(), StatusCode::OK);
    let second = refresh_cookie(&response).expect("a new cookie");
    assert_ne!(second, first);
    let body = response.text().await.unwrap();
    assert!(
        !body.contains("refresh_token") && !body.contains(&second),
        "{body}"
    );
    let access: Value = serde_json::from_str(&body).unwrap();
    let access = access["access_token"].as_str().unwrap();
    app.expect(StatusCode::OK, Method::GET, "/api/v1/auth/me", Some(access), None)
        .await;

    // The spent cookie comes back: someone copied it. The whole family ends, and the
    // refusal clears the cookie.
    let reused = app.refresh(&first).await;
    assert_cleared(&reused);
    refused(reused, StatusCode::UNAUTHORIZED, "unauthorized").await;
    refused(
        app.refresh(&second).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    refused(
        app.refresh("unknown").await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    // No cookie at all.
    let bare = app
        .http
        .post(format!("{}/api/v1/auth/refresh", app.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let message = refused(bare, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert!(message.contains("no sign-in cookie"), "{message}");
    // A token sent the old way, in the body, is not read.
    let third = refresh_cookie(&login(&app, &[]).await).unwrap();
    let in_body = app
        .call(
            Method::POST,
            "/api/v1/auth/refresh",
            None,
            Some(json!({ "refresh_token": third })),
        )
        .await;
    refused(in_body, StatusCode::UNAUTHORIZED, "unauthorized").await;

    // Another login is another family, untouched.
    assert_eq!(app.refresh(&third).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn requests_another_sites_page_could_make_are_refused_and_spend_nothing() {
    let app = TestApp::spawn(&[("http.cors_origins", "https://app.example.org")]).await;
    let (_, cookie, _) = app.register(ADA).await;
    // What a form can send, and no content type at all.
    for (content_type, body) in [
        ("application/x-www-form-urlencoded", "a=1"),
        ("multipart/form-data; boundary=x", "--x--"),
        ("text/plain", "{}"),
    ] {
        let response = with_cookie(&app, "/api/v1/auth/refresh", &cookie, |r| {
            r.header("content-type", content_type).body(body)
        })
        .await;
        let message = refused(response, StatusCode::FORBIDDEN, "forbidden").await;
        assert!(message.contains("application/json"), "{content_type}: {message}");
    }
    let bare = with_cookie(&app, "/api/v1/auth/refresh", &cookie, |r| r).await;
    refused(bare, StatusCode::FORBIDDEN, "forbidden").await;
    // JSON from a page of another origin (a script there would also need CORS).
    for origin in ["https://evil.example", "null", "http://app.example.org"] {
        let response = with_cookie(&app, "/api/v1/auth/refresh", &cookie, |r| {
            r.header("origin", origin).json(&json!({}))
        })
        .await;
        let message = refused(response, StatusCode::FORBIDDEN, "forbidden").await;
        assert!(
            message.contains("may not use the sign-in cookie"),
            "{origin}: {message}"
        );
    }
    // The logout route is guarded the same way, even with a stolen access token.
    let token = login(&app, &[]).await.json::<Value>().await.unwrap()["tokens"]["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let form = with_cookie(&app, "/api/v1/auth/logout", &cookie, |r| {
        r.bearer_auth(&token)
            .header("content-type", "application/x-www-form-urlencoded")
    })
    .await;
    refused(form, StatusCode::FORBIDDEN, "forbidden").await;

    // None of that spent the cookie: the app's own page (the API's origin, or the front
    // end's) still refreshes with it.
    let own = app.base.clone();
    let response = with_cookie(&app, "/api/v1/auth/refresh", &cookie, |r| {
        r.header("origin", own).json(&json!({}))
    })
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let next = refresh_cookie(&response).unwrap();
    let response = with_cookie(&app, "/api/v1/auth/refresh", &next, |r| {
        r.header("origin", "https://app.example.org").json(&json!({}))
    })
    .await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn logout_revokes_the_cookies_family_and_clears_it() {
    let app = TestApp::spawn(&[]).await;
    let (access, cookie, _) = app.register(ADA).await;
    // The family has moved on once: logout revokes the whole of it, not one token.
    let rotated = app.refresh(&cookie).await;
    let current = refresh_cookie(&rotated).unwrap();
    let other = refresh_cookie(&login(&app, &[]).await).unwrap();

    let response = with_cookie(&app, "/api/v1/auth/logout", &current, |r| {
        r.bearer_auth(&access).json(&json!({}))
    })
    .await;
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_cleared(&response);
    refused(
        app.refresh(&current).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    app.expect(
        StatusCode::UNAUTHORIZED,
        Method::GET,
        "/api/v1/auth/me",
        Some(&access),
        None,
    )
    .await;
    // Another sign-in of the same person is not this one.
    assert_eq!(app.refresh(&other).await.status(), StatusCode::OK);
}

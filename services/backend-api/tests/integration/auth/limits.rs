//! Sign-in limits: correct logins never held back, failures from other addresses never
//! keeping the owner out, one account's back-off, an address spraying accounts, many
//! addresses guessing one account (slowed, never locked); password checks in a rush, and
//! past their queue.

use super::*;

#[tokio::test]
async fn twenty_correct_logins_in_a_row_all_succeed() {
    let app = TestApp::spawn(&[TRUST_PROXY]).await;
    app.register("ada@example.org").await;
    for _ in 0..20 {
        let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
        assert_eq!(response.status(), StatusCode::OK);
    }
}

/// Guesses at one account from many addresses (each under its own limits) reach the
/// account's ceiling, past which every attempt on it waits, wherever it comes from: a
/// delay, never a refusal, so the owner still gets in. Only a lower bound is read.
#[tokio::test]
async fn guesses_from_many_addresses_slow_the_account_but_never_lock_it_out() {
    let app = TestApp::spawn(&[
        TRUST_PROXY,
        ("auth.login_failures_per_account", "3"),
        ("auth.login_account_delay_base_ms", "1500"),
        ("auth.login_account_delay_max_secs", "2"),
    ])
    .await;
    app.register("ada@example.org").await;
    for i in 0..3 {
        let response = login_from(
            &app,
            &format!("198.51.100.{i}"),
            "ada@example.org",
            "wrong password!",
        )
        .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    for (address, password, status) in [
        ("198.51.100.200", "wrong password!", StatusCode::UNAUTHORIZED),
        ("192.0.2.1", PASSWORD, StatusCode::OK),
    ] {
        let started = std::time::Instant::now();
        let response = login_from(&app, address, "ada@example.org", password).await;
        assert_eq!(response.status(), status, "from {address}");
        let waited = started.elapsed();
        assert!(
            waited >= std::time::Duration::from_millis(1500),
            "from {address}: {waited:?}"
        );
    }
}

#[tokio::test]
async fn failures_from_other_addresses_never_keep_the_owner_out() {
    // The account's own ceiling (below) is out of the way here.
    let app = TestApp::spawn(&[TRUST_PROXY, ("auth.login_failures_per_account", "1000")]).await;
    app.register("ada@example.org").await;
    // 20 failures from rotating addresses, and 20 from one.
    for i in 0..20 {
        let response = login_from(
            &app,
            &format!("198.51.100.{i}"),
            "ada@example.org",
            "wrong password!",
        )
        .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let mut refused = 0;
    for _ in 0..20 {
        let response = login_from(&app, "203.0.113.9", "ada@example.org", "wrong password!").await;
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
            // The README's longest back-off.
            assert!((1..=60).contains(&retry_after(&response)));
        }
    }
    assert!(refused > 0, "the guessing address was never backed off");
    // The owner, from their own address, at once.
    let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn one_account_from_one_address_backs_off_after_five_failures_doubling() {
    let app = TestApp::spawn(&[TRUST_PROXY]).await;
    app.register("ada@example.org").await;
    let (guesser, email) = ("203.0.113.9", "ada@example.org");
    for _ in 0..5 {
        let response = login_from(&app, guesser, email, "wrong password!").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    // Refused even with the right password, for the first back-off (1 s).
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&response), 1);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limited");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    // The next failure doubles it.
    let response = login_from(&app, guesser, email, "wrong password!").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&response), 2);
    tokio::time::sleep(Duration::from_millis(2100)).await;
    // A success clears the pair: a new mistake is not backed off.
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    let response = login_from(&app, guesser, email, "wrong password!").await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    let response = login_from(&app, guesser, email, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn an_address_spraying_many_accounts_is_refused() {
    let app = TestApp::spawn(&[TRUST_PROXY, ("auth.login_failures_per_address", "6")]).await;
    app.register("ada@example.org").await;
    for i in 0..6 {
        let response = login_from(
            &app,
            "203.0.113.9",
            &format!("person{i}@example.org"),
            "wrong password!",
        )
        .await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let response = login_from(&app, "203.0.113.9", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&response), 900);
    // Another address is not affected.
    let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

/// One password check at a time; the rest wait their turn (long enough never to run out).
const ONE_AT_A_TIME: [(&str, &str); 3] = [
    ("auth.password_threads", "1"),
    ("auth.password_queue", "100"),
    ("auth.password_wait_secs", "600"),
];

#[tokio::test]
async fn correct_passwords_in_a_rush_all_get_in_while_a_guesser_is_still_stopped() {
    let settings = [
        &ONE_AT_A_TIME[..],
        &[TRUST_PROXY, ("auth.login_backoff_base_secs", "600")],
    ]
    .concat();
    let app = TestApp::spawn(&settings).await;
    for i in 0..4 {
        app.register(&format!("person{i}@example.org")).await;
    }
    // 24 correct sign-ins from 24 addresses, and a guesser's 8 at once, all together:
    // the correct ones are never refused however many checks run beside them.
    let app = &app;
    let correct = (0..24).map(|i| {
        let (address, email) = (format!("192.0.2.{i}"), format!("person{}@example.org", i % 4));
        async move { login_from(app, &address, &email, PASSWORD).await.status() }
    });
    let guesses = (0..8).map(|_| async {
        login_from(app, "203.0.113.9", "person0@example.org", "wrong password!")
            .await
            .status()
    });
    let (correct, guesses) = tokio::join!(
        futures::future::join_all(correct),
        futures::future::join_all(guesses)
    );
    assert!(
        correct.iter().all(|status| *status == StatusCode::OK),
        "{correct:?}"
    );
    assert!(
        guesses
            .iter()
            .all(|status| [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(status)),
        "{guesses:?}"
    );
    // The guesser's failures counted: even the right password is refused from there now.
    let response = login_from(app, "203.0.113.9", "person0@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(&response) > 1);
}

#[tokio::test]
async fn checks_past_the_queue_are_refused_with_503_and_count_as_no_failure() {
    // One check runs (a costly one) and none may wait: of sign-ins sent together, those
    // that find the thread busy are refused at once.
    let app = TestApp::spawn(&[
        TRUST_PROXY,
        ("auth.password_threads", "1"),
        ("auth.password_queue", "0"),
        ("auth.argon2_memory_kib", "8192"),
        ("auth.argon2_iterations", "2"),
        ("auth.login_failures_per_address", "1"),
    ])
    .await;
    app.register("ada@example.org").await;
    let rush = (0..16).map(|_| login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD));
    let responses = futures::future::join_all(rush).await;
    let mut refused = 0;
    for response in responses {
        match response.status() {
            StatusCode::OK => {}
            StatusCode::SERVICE_UNAVAILABLE => {
                refused += 1;
                assert!(retry_after(&response) >= 1);
                let body: serde_json::Value = response.json().await.unwrap();
                assert_eq!(body["error"]["code"], "unavailable");
                assert!(
                    body["error"]["message"].as_str().unwrap().contains("retry"),
                    "{body}"
                );
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert!(refused > 0, "no sign-in found the one thread busy");
    // A refusal is no failure: one failure would have shut this address out.
    let response = login_from(&app, "192.0.2.1", "ada@example.org", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

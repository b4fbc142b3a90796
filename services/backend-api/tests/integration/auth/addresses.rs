//! Whose address the sign-in limits count, as an attacker would probe it: a forged
//! `X-Forwarded-For` from a peer that is no trusted proxy, or forged hops in front of
//! the one a trusted proxy added, change nothing; behind the proxy, clients are counted
//! apart (IPv6 by their /64), so one guesser locked out locks no one else out.

use reqwest::StatusCode;

use super::{login_from, retry_after, TRUST_PROXY};
use crate::support::{TestApp, PASSWORD};

const ADA: &str = "ada@example.org";
const WRONG: &str = "wrong password!";

/// Five failures back an account and address off (the default); the sixth attempt, even
/// with the right password, is refused if all six were counted as one address.
async fn six_attempts_forging(app: &TestApp, forged: impl Fn(usize) -> String) -> StatusCode {
    for i in 0..5 {
        let response = login_from(app, &forged(i), ADA, WRONG).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "attempt {i}");
    }
    login_from(app, &forged(5), ADA, PASSWORD).await.status()
}

#[tokio::test]
async fn a_forged_forwarded_for_from_an_untrusted_peer_is_not_its_address() {
    // No proxy trusted (the default), and proxies trusted that the peer is not one of.
    for settings in [&[][..], &[("http.trusted_proxies", "10.0.0.0/8, fd00::/8")][..]] {
        let app = TestApp::spawn(settings).await;
        app.register(ADA).await;
        let status = six_attempts_forging(&app, |i| format!("198.51.100.{i}")).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{settings:?}");
    }
}

#[tokio::test]
async fn hops_forged_in_front_of_the_trusted_proxys_one_are_never_read() {
    // What the client sends comes first; the proxy appends the address it saw.
    let app = TestApp::spawn(&[TRUST_PROXY]).await;
    app.register(ADA).await;
    let status = six_attempts_forging(&app, |i| format!("192.0.2.{i}, 198.51.100.7")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Two proxies in front (a TLS proxy, then nginx on a private network): the client is
    // the hop before both.
    let app = TestApp::spawn(&[("http.trusted_proxies", "127.0.0.1,172.16.0.0/12")]).await;
    app.register(ADA).await;
    let status = six_attempts_forging(&app, |i| format!("192.0.2.{i}, 198.51.100.7, 172.18.0.1")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn behind_a_trusted_proxy_two_clients_are_counted_apart() {
    let app = TestApp::spawn(&[TRUST_PROXY, ("auth.login_failures_per_address", "3")]).await;
    app.register(ADA).await;
    // One client sprays three accounts and is refused; the other is not.
    for i in 0..3 {
        let response = login_from(&app, "198.51.100.7", &format!("p{i}@example.org"), WRONG).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let response = login_from(&app, "198.51.100.7", ADA, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(retry_after(&response), 900);
    let response = login_from(&app, "198.51.100.8", ADA, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn ipv6_addresses_in_one_64_count_as_one() {
    let app = TestApp::spawn(&[TRUST_PROXY, ("auth.login_failures_per_address", "3")]).await;
    app.register(ADA).await;
    for (i, address) in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:abcd::9"]
        .iter()
        .enumerate()
    {
        let response = login_from(&app, address, &format!("p{i}@example.org"), WRONG).await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let same_64 = "2001:db8:1:2:ffff:ffff:ffff:ffff";
    let response = login_from(&app, same_64, ADA, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let next_64 = "2001:db8:1:3::1";
    let response = login_from(&app, next_64, ADA, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_guesser_locked_out_does_not_lock_out_the_right_password_from_elsewhere() {
    // Long back-offs: the guesser stays locked out for the whole test.
    let app = TestApp::spawn(&[
        TRUST_PROXY,
        ("auth.login_backoff_base_secs", "600"),
        ("auth.login_backoff_max_secs", "3600"),
    ])
    .await;
    app.register(ADA).await;
    for _ in 0..8 {
        let response = login_from(&app, "203.0.113.9", ADA, WRONG).await;
        assert!(
            [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(&response.status()),
            "{}",
            response.status()
        );
    }
    let response = login_from(&app, "203.0.113.9", ADA, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(retry_after(&response) >= 600);
    // The owner, at once, from their own address, through the same proxy.
    let response = login_from(&app, "192.0.2.1", ADA, PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
}

//! The nftables ruleset of one sandbox, and the ranges no sandbox reaches.

use std::net::Ipv4Addr;

use sandbox_manager_contract::NetworkMode;

use crate::driver::TOOL_API_PORT;

/// IPv4 ranges no sandbox reaches: those IANA's special-purpose registry marks as not
/// globally reachable where real networks live — "this network", private (RFC 1918),
/// shared address space (carrier NAT; some clouds' metadata service), loopback,
/// link-local (169.254.169.254), IETF protocol assignments — and multicast, reserved
/// and broadcast. The documentation and benchmarking ranges route nowhere and are left
/// alone; IPv6 is refused altogether (the sandbox networks have none).
const BLOCKED: [(Ipv4Addr, u8); 9] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),
    (Ipv4Addr::new(10, 0, 0, 0), 8),
    (Ipv4Addr::new(100, 64, 0, 0), 10),
    (Ipv4Addr::new(127, 0, 0, 0), 8),
    (Ipv4Addr::new(169, 254, 0, 0), 16),
    (Ipv4Addr::new(172, 16, 0, 0), 12),
    (Ipv4Addr::new(192, 0, 0, 0), 24),
    (Ipv4Addr::new(192, 168, 0, 0), 16),
    (Ipv4Addr::new(224, 0, 0, 0), 3),
];

pub(super) fn is_blocked(address: Ipv4Addr) -> bool {
    BLOCKED.iter().any(|&(network, prefix)| {
        let mask = u32::MAX << (32 - u32::from(prefix));
        u32::from(address) & mask == u32::from(network)
    })
}

/// The nftables ruleset of one sandbox. Refusals are rejects, not drops, so a blocked
/// connection fails at once ("No route to host") instead of hanging until a time-out.
pub(super) fn ruleset(mode: NetworkMode, host: &[Ipv4Addr]) -> String {
    let outward = match mode {
        NetworkMode::Offline => String::new(),
        NetworkMode::Internet => {
            let blocked: Vec<String> = BLOCKED
                .iter()
                .map(|(network, prefix)| format!("{network}/{prefix}"))
                .chain(host.iter().map(ToString::to_string))
                .collect();
            // Root owns no process of the sandbox: its sockets there are the engine's DNS
            // server forwarding the sandbox's queries to the host's resolvers, which may
            // well have private addresses.
            format!(
                "    meta skuid 0 meta l4proto {{ tcp, udp }} th dport 53 accept\n    \
                 ip daddr {{ {} }} reject with icmpx type admin-prohibited\n    \
                 meta nfproto ipv4 accept\n",
                blocked.join(", ")
            )
        }
    };
    // The table is created, deleted and made again in one transaction: installing twice
    // replaces the rules instead of adding a second copy.
    format!(
        "table inet sandpiper\n\
         delete table inet sandpiper\n\
         table inet sandpiper {{\n  \
           chain input {{\n    \
             type filter hook input priority filter; policy drop;\n    \
             iif lo accept\n    \
             ct state established,related accept\n    \
             tcp dport {TOOL_API_PORT} accept\n  \
           }}\n  \
           chain output {{\n    \
             type filter hook output priority filter; policy drop;\n    \
             oif lo accept\n    \
             ct state established,related accept\n\
         {outward}    \
             reject with icmpx type admin-prohibited\n  \
           }}\n\
         }}\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_blocked_by_prefix() {
        for blocked in [
            "10.1.2.3",
            "172.31.255.1",
            "169.254.169.254",
            "100.100.100.200",
            "127.0.0.53",
            "224.0.0.1",
        ] {
            assert!(is_blocked(blocked.parse().unwrap()), "{blocked}");
        }
        for open in [
            "172.32.0.1",
            "8.8.8.8",
            "192.0.2.2",
            "100.128.0.1",
            "203.0.113.80",
        ] {
            assert!(!is_blocked(open.parse().unwrap()), "{open}");
        }
    }

    #[test]
    fn only_internet_sandboxes_have_a_way_out() {
        let host = [Ipv4Addr::new(192, 0, 2, 2)];
        let internet = ruleset(NetworkMode::Internet, &host);
        assert!(
            internet.contains("192.168.0.0/16, 224.0.0.0/3, 192.0.2.2 }"),
            "{internet}"
        );
        assert!(internet.contains("meta nfproto ipv4 accept"), "{internet}");
        let offline = ruleset(NetworkMode::Offline, &host);
        assert!(
            !offline.contains("nfproto") && !offline.contains("skuid"),
            "{offline}"
        );
        for rules in [internet, offline] {
            assert!(rules.contains("tcp dport 8080 accept"), "{rules}");
            assert!(
                rules
                    .trim_end()
                    .ends_with("reject with icmpx type admin-prohibited\n  }\n}"),
                "{rules}"
            );
        }
    }
}

//! The data E2B's results carry beside the text and picture: `chart` for a Matplotlib
//! figure (its type, labels, units, scales and elements, as the SDK's charts.py reads
//! them), `data` for a pandas DataFrame and `json` for a list or dict.

use serde_json::{json, Value};

use super::{of, run, started};

/// The chart of the one figure a cell shows.
async fn chart_of(client: &tool_api_client::ToolApiClient, code: &str) -> Value {
    let outputs = run(client, code).await;
    let [figure] = &of(&outputs, "result")[..] else {
        panic!("{outputs:?}")
    };
    assert!(figure["png"].is_string(), "{figure}");
    figure["chart"].clone()
}

#[tokio::test]
async fn figures_and_frames_carry_their_data() {
    let sandbox = started().await;
    let client = &sandbox.client;

    let line = chart_of(
        client,
        "import matplotlib.pyplot as plt\nplt.plot([0, 1, 2], [3.5, float('nan'), 1.5], label='walk')\n\
         plt.xlabel('Time (s)')\nplt.ylabel('Distance [m]')\nplt.title('Walk')\nplt.legend()\nplt.show()",
    )
    .await;
    assert_eq!(line["type"], "line", "{line}");
    assert_eq!(line["title"], "Walk");
    assert_eq!((&line["x_unit"], &line["y_unit"]), (&json!("s"), &json!("m")));
    assert_eq!(line["x_scale"], "linear");
    assert_eq!(
        line["elements"],
        json!([{ "label": "walk", "points": [[0, 3.5], [1, null], [2, 1.5]] }])
    );
    assert!(!line["x_ticks"].as_array().unwrap().is_empty(), "{line}");

    let bars = chart_of(
        client,
        "plt.bar(['north', 'south'], [3, 5], label='sales')\nplt.title('Regions')\nplt.show()",
    )
    .await;
    assert_eq!(bars["type"], "bar", "{bars}");
    assert_eq!(
        bars["elements"],
        json!([
            { "label": "north", "group": "sales", "value": 3.0 },
            { "label": "south", "group": "sales", "value": 5.0 }
        ])
    );

    let pie = chart_of(client, "plt.pie([1, 3], labels=['a', 'b'])\nplt.show()").await;
    assert_eq!(pie["type"], "pie", "{pie}");
    assert_eq!(
        pie["elements"][1],
        json!({ "label": "b", "angle": 270.0, "radius": 1.0 })
    );

    // A share's angle as the slice shows it, not Matplotlib's float32 error (323.999991).
    let shares = chart_of(client, "plt.pie([90, 10], startangle=90)\nplt.show()").await;
    assert_eq!(shares["elements"][0]["angle"], 324.0, "{shares}");

    // Boxes: quartiles, median, whisker ends and outliers, upright and on their side.
    let scores = "{'A': [85, 90, 78, 92, 88], 'B': [95, 89, 76, 91, 84, 87]}";
    let b = json!({ "label": "B", "min": 84.0, "first_quartile": 84.75, "median": 88.0,
                    "third_quartile": 90.5, "max": 95.0, "outliers": [76.0] });
    // The mean, drawn as a line across or as a marker, is neither median nor outlier.
    for (side, mean) in [("True", "meanline=True"), ("False", "meanline=False")] {
        let boxes = chart_of(
            client,
            &format!(
                "scores = {scores}\nplt.boxplot(scores.values(), labels=scores.keys(), \
                 patch_artist=True, vert={side}, showmeans=True, {mean})\nplt.show()"
            ),
        )
        .await;
        assert_eq!(boxes["type"], "box_and_whisker", "{boxes}");
        assert_eq!(boxes["elements"][1], b, "vert={side}: {boxes}");
        assert_eq!(boxes["elements"][0]["outliers"], json!([]));
    }
    // Steps are patches too, but no boxes.
    let steps = chart_of(client, "plt.stairs([1, 3, 2])\nplt.show()").await;
    assert_eq!(steps["type"], "unknown", "{steps}");

    let two = chart_of(
        client,
        "fig, (left, right) = plt.subplots(1, 2)\nleft.scatter([1, 2], [3, 4])\nright.plot([1, 2])\n\
         fig.suptitle('Both')\nplt.show()",
    )
    .await;
    assert_eq!(two["type"], "superchart", "{two}");
    assert_eq!(two["title"], "Both");
    let kinds: Vec<&Value> = two["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["type"])
        .collect();
    assert_eq!(kinds, [&json!("scatter"), &json!("line")]);

    // A table's columns, dates as ISO text; plain values carry neither.
    let frame = run(
        client,
        "import pandas as pd\npd.DataFrame({'n': [1, 2], 'day': pd.to_datetime(['2024-01-01', '2024-01-02'])})",
    )
    .await;
    assert_eq!(
        of(&frame, "result")[0]["data"],
        json!({ "n": [1, 2], "day": ["2024-01-01T00:00:00", "2024-01-02T00:00:00"] })
    );
    let plain = run(client, "40 + 2").await;
    let result = of(&plain, "result")[0];
    assert!(
        result.get("chart").is_none() && result.get("data").is_none(),
        "{result}"
    );

    // A Pillow image's show() is the cell's picture, not a viewer program's window.
    let shown = run(
        client,
        "from PIL import Image\nImage.new('RGB', (16, 8), 'red').show()\nprint('shown')",
    )
    .await;
    let [picture] = &of(&shown, "result")[..] else {
        panic!("{shown:?}")
    };
    assert!(picture["png"].is_string(), "{picture}");

    // A dict or list as JSON when it is JSON (NumPy's numbers too), else as text only.
    let dict = run(client, "import numpy as np\n{'a': [1, np.int64(2)], 'b': None}").await;
    assert_eq!(of(&dict, "result")[0]["json"], json!({ "a": [1, 2], "b": null }));
    let odd = run(client, "[object()]").await;
    let result = of(&odd, "result")[0];
    assert!(
        result.get("json").is_none() && result["text"].is_string(),
        "{result}"
    );
}

//! A shown figure's picture (kernel/figures.py): the tight one IPython would print, from
//! one draw when every part lies on the canvas, and IPython's own two-pass print, which
//! grows the picture, when a part lies beyond it.

use base64::Engine;

use super::{of, run, started};

/// Counts the figure's draws, shows it, and prints the count; before that, prints the size
/// of IPython's own tight print of the same figure, drawn apart.
fn shown(figure: &str) -> String {
    format!(
        "import io, matplotlib.pyplot as plt, PIL.Image\n\
         from IPython.core.pylabtools import print_figure\n\
         def figure():\n{figure}\n    return fig\n\
         apart = figure()\n\
         print('tight', *PIL.Image.open(io.BytesIO(print_figure(apart, 'png'))).size)\n\
         plt.close(apart)\n\
         fig = figure()\n\
         draws, draw = [], fig.draw\n\
         fig.draw = lambda renderer: (draws.append(1), draw(renderer))[1]\n\
         plt.show()\n\
         print('draws', len(draws))"
    )
}

/// The picture's width and height, the tight print's, and the draws counted.
async fn picture(client: &tool_api_client::ToolApiClient, figure: &str) -> ((u32, u32), (u32, u32), usize) {
    let outputs = run(client, &shown(figure)).await;
    let [result] = &of(&outputs, "result")[..] else {
        panic!("{outputs:?}")
    };
    let png = base64::engine::general_purpose::STANDARD
        .decode(result["png"].as_str().expect("a PNG"))
        .unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let size = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    let printed: String = of(&outputs, "stdout")
        .iter()
        .filter_map(|out| out["text"].as_str())
        .collect();
    let number = |line: &str, at: usize| -> usize {
        let words: Vec<&str> = printed
            .lines()
            .find(|text| text.starts_with(line))
            .unwrap_or_else(|| panic!("no {line:?} in {printed:?}"))
            .split(' ')
            .collect();
        words[at].parse().unwrap()
    };
    let tight = (number("tight", 1) as u32, number("tight", 2) as u32);
    ((size(16), size(20)), tight, number("draws", 1))
}

fn near(a: (u32, u32), b: (u32, u32)) -> bool {
    a.0.abs_diff(b.0) <= 4 && a.1.abs_diff(b.1) <= 4
}

#[tokio::test]
async fn a_figure_is_drawn_once_as_the_tight_print_shows_it() {
    let sandbox = started().await;
    let client = &sandbox.client;

    // On the canvas (640 × 480 at Matplotlib's default size): one draw, cropped as tight.
    let line = "    fig, ax = plt.subplots()\n    ax.plot([0, 1, 2], [3, 1, 2], label='walk')\n    \
                ax.set_title('Walk')\n    ax.set_xlabel('Time (s)')\n    ax.legend()";
    let (size, tight, draws) = picture(client, line).await;
    assert_eq!(draws, 1, "drawn once");
    assert!(near(size, tight), "{size:?} against IPython's {tight:?}");
    assert!(size.0 < 640 && size.1 < 480, "cropped: {size:?}");

    // A legend beyond the canvas: IPython's print, which grows the picture to show it.
    let outside = "    fig, ax = plt.subplots()\n    ax.plot([0, 1], [1, 0], label='far')\n    \
                   ax.legend(bbox_to_anchor=(1.6, 1), loc='upper left')";
    let (size, tight, draws) = picture(client, outside).await;
    assert_eq!(draws, 2, "printed by IPython");
    assert_eq!(size, tight);
    assert!(size.0 > 640, "grown to the legend: {size:?}");

    // Drawing up to the border (an image filling the canvas), found once drawn: IPython's
    // print too.
    let filled = "    fig = plt.figure()\n    ax = fig.add_axes([0, 0, 1, 1])\n    \
                  ax.imshow([[0, 1], [1, 0]], aspect='auto')";
    let (size, tight, draws) = picture(client, filled).await;
    assert_eq!((draws, size), (3, tight));
}

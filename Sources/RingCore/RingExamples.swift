/// A catalogue of rings that covers every parameter: the golden tests render it, the docs show
/// it, and the benchmark times it.
package enum RingExamples {
    /// (file-name-safe name, query)
    package static let all: [(name: String, query: String)] = [
        ("default", "p=72"),
        ("zero", "p=0"),
        ("full", "p=100"),
        ("almost-full", "p=99.5&decimals=1"),
        ("over-range", "p=150"),
        ("min-max", "p=7&min=0&max=8&label={p}+of+goal"),
        ("negative-range", "p=-5&min=-20&max=20"),
        ("slice", "p=72&slice=0.45"),
        ("slice-ccw", "p=72&slice=0.25&dir=ccw"),
        ("half", "p=64&half"),
        ("half-ccw", "p=64&half=1&dir=ccw&cap=butt"),
        ("start", "p=40&start=90"),
        ("ccw", "p=40&dir=ccw"),
        ("segments", "p=50&segments=5"),
        ("segments-slice", "p=72&segments=10&slice=0.3&cap=butt&segmentGap=4"),
        ("size-small", "p=72&size=32"),
        ("size-large", "p=72&size=320"),
        ("scale", "p=72&scale=2"),
        ("widths", "p=60&width=6&trackWidth=18"),
        ("thick", "p=60&width=40"),
        ("color", "p=72&color=%23e5534b"),
        ("color-named", "p=72&color=rebeccapurple"),
        ("color-alpha", "p=72&color=2f81f780"),
        ("gradient", "p=80&gradient=22c55e,eab308,ef4444"),
        ("gradient-full", "p=100&gradient=0ea5e9,a855f7"),
        ("thresholds-low", "p=35&thresholds=ef4444,50:eab308,80:22c55e"),
        ("thresholds-high", "p=86&thresholds=ef4444,50:eab308,80:22c55e&labelColor=bar"),
        ("track", "p=72&track=ffd8b5"),
        ("track-none", "p=72&track=none"),
        ("fill", "p=72&fill=eef6ff"),
        ("bg", "p=72&bg=0d1117&theme=dark"),
        ("outline", "p=72&outline=8b949e&track=f6f8fa"),
        ("cap-butt", "p=72&cap=butt"),
        ("label-none", "p=72&label=none"),
        ("label-text", "p=72&label={p}+done"),
        ("locale-fr", "p=72.5&decimals=1&locale=fr&caption=terminé"),
        ("locale-tr", "p=72&locale=tr&half"),
        ("locale-ja", "p=72.5&decimals=1&locale=ja&label=進捗+{p}"),
        ("time-progress", "p=93.03&caption=25+days+left&slice=0.25"),
        ("endpoint", "p=72&slice=0.45&color=4c1&caption=coverage"),
        ("label-wrap", "p=72&label=Hoàn+thành+{p}"),
        ("label-wrap-ja", "p=72&label=進捗状況を表示中{p}"),
        ("label-wrap-half", "p=64&half&label=Đang+gửi+dữ+liệu+{p}"),
        ("label-color", "p=72&labelColor=cf222e"),
        ("caption", "p=72&caption=coverage"),
        ("caption-half", "p=64&half&caption=of+{p}+budget&captionColor=0969da"),
        ("decimals", "p=72.456&decimals=2"),
        ("theme-light", "p=72&theme=light"),
        ("theme-dark", "p=72&theme=dark"),
        ("anim", "p=72&anim=1.5"),
        ("shadow", "p=72&shadow"),
        ("title", "p=72&title=Build+coverage"),
        ("rings", "p=72,45,90&color=ff2d55,a2ff00,00e5ff"),
        ("rings-palette", "p=72,45,90,30&size=160&width=12&gap=3"),
        ("label-below-one", "p=0.2"),
        (
            "rings-activity",
            "p=420,24,10&max=500,30,12&color=fa114f,a6ff00,00d8fe&track=fa114f40,a6ff0040,00d8fe40&bg=000000"
                + "&theme=dark&width=14&gap=3&label=none"
        ),
        ("rings-four", "p=100,75,50,25&size=160&width=12&gap=4&label={p4}"),
        ("rings-half", "p=64,40&half&size=200&gap=4&color=6366f1,f59e0b&caption={p2}+spent"),
        ("rings-segments", "p=60,30&segments=5&color=22c55e,0ea5e9&track=none,e1e4e8"),
        ("rings-thresholds", "p=35,65,90&thresholds=ef4444,50:eab308,80:22c55e&labelColor=bar"),
        ("stack", "p=120,12,5&stack&max=sum&color=2da44e,cf222e,bf8700&parts=passed,failed,skipped"),
        ("stack-gauge", "p=40,25,15&stack&slice=0.25&caption={p2}+in+review"),
        ("stack-half", "p=30,20,10&stack&half&ticks=4&shadow&dir=ccw"),
        ("laps", "p=230&overflow=lap"),
        ("laps-whole", "p=200&overflow=lap"),
        ("laps-gradient", "p=170&overflow=lap&gradient=22c55e,0ea5e9,a855f7"),
        ("laps-rings", "p=130,260,80&overflow=lap&size=160&width=14&gap=3&label=none"),
        ("laps-butt", "p=145&overflow=lap&cap=butt&shadow"),
        ("target", "p=64&target=80"),
        ("target-rings", "p=64,30,90&target=80,none,75&targetColor=cf222e&size=160&width=12&gap=4"),
        ("target-half", "p=40&half&target=70&caption=goal+70%25"),
        ("target-meets", "p=70&half&target=70&ticks=10&size=160"),
        ("target-lap", "p=130&overflow=lap&target=150"),
        ("ticks", "p=72&ticks=10"),
        ("ticks-slice", "p=72&slice=0.25&ticks=8&target=90&tickColor=ffffff"),
        ("ticks-half", "p=64&half&ticks=4&theme=dark"),
        ("ticks-rings", "p=72,45&ticks=12&anim=1"),
        ("rings-gradient", "p=80,55&gradient=22c55e,eab308,ef4444&shadow&anim=1"),
        (
            "everything",
            "p=83&slice=0.3&start=30&dir=ccw&size=200&width=16&trackWidth=10&gradient=06b6d4,6366f1"
                + "&track=e2e8f0&fill=f8fafc&outline=94a3b8&label={p}+ok&labelColor=0f172a&decimals=1&theme=light&anim=2&shadow=1"
                + "&title=Everything"
        ),
    ]

    /// Invalid queries and the error images they get, laid out for the box each asks for: the
    /// golden tests and the docs show them too. (file-name-safe name, query)
    package static let errors: [(name: String, query: String)] = [
        ("error", "p=1&size=100000"),
        ("error-small", "p=1&width=500&size=64"),
        ("error-tiny", "p=abc&size=16"),
    ]

    /// The seeds' five languages (French, Vietnamese, Korean, Chinese, Japanese), as label and
    /// caption: the docs show each in SVG and in PNG with the fallback fonts, and the golden
    /// tests keep the SVGs. Apart from the catalogue, whose PNGs CI compares with resvg's,
    /// which would draw these with other fonts. (file-name-safe name, query)
    package static let languages: [(name: String, query: String)] = [
        // Terminé / Œuvre™ {p}
        ("lang-fr", "p=72&size=160&label=Termin%C3%A9&caption=%C5%92uvre%E2%84%A2+{p}"),
        // Tiến độ / Cập nhật {p}
        ("lang-vi", "p=72&size=160&label=Ti%E1%BA%BFn+%C4%91%E1%BB%99&caption=C%E1%BA%ADp+nh%E1%BA%ADt+{p}"),
        // 완료 / 진행률 {p}
        ("lang-ko", "p=72&size=160&label=%EC%99%84%EB%A3%8C&caption=%EC%A7%84%ED%96%89%EB%A5%A0+{p}"),
        // 完成 / 进度 {p}
        ("lang-zh", "p=72&size=160&label=%E5%AE%8C%E6%88%90&caption=%E8%BF%9B%E5%BA%A6+{p}"),
        // 完了 / 進捗 ひらがな {p}
        (
            "lang-ja",
            "p=72&size=160&label=%E5%AE%8C%E4%BA%86&caption=%E9%80%B2%E6%8D%97+%E3%81%B2%E3%82%89%E3%81%8C%E3%81%AA+{p}"
        ),
    ]
}

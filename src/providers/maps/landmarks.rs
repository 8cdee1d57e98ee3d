//! Built-in data of the offline gazetteer: well-known places in the seeded cities, the
//! districts they lie in, and the province of every city code.
//!
//! Points are GCJ-02 (as AMap shows them), to within about a hundred metres: good enough to
//! name a neighbourhood and to find the nearest store, not to navigate by.

/// A well-known place. `district_code` is the 6-digit adcode of its district.
#[derive(Debug, Clone, Copy)]
pub struct Landmark {
    pub id: &'static str,
    pub city_code: &'static str,
    pub district_code: &'static str,
    pub name_cn: &'static str,
    pub name_en: &'static str,
    pub address_cn: &'static str,
    pub address_en: &'static str,
    pub lng: f64,
    pub lat: f64,
}

const fn lm(
    id: &'static str,
    city_code: &'static str,
    district_code: &'static str,
    name: (&'static str, &'static str),
    address: (&'static str, &'static str),
    lng: f64,
    lat: f64,
) -> Landmark {
    Landmark {
        id,
        city_code,
        district_code,
        name_cn: name.0,
        name_en: name.1,
        address_cn: address.0,
        address_en: address.1,
        lng,
        lat,
    }
}

pub const SHANGHAI: &str = "310100";
pub const BEIJING: &str = "110100";
pub const SHENZHEN: &str = "440300";
pub const GUANGZHOU: &str = "440100";
pub const HANGZHOU: &str = "330100";

pub const LANDMARKS: &[Landmark] = &[
    // Shanghai
    lm(
        "sh-peoples-square",
        SHANGHAI,
        "310101",
        ("人民广场", "People's Square"),
        (
            "上海市黄浦区人民大道120号",
            "120 Renmin Avenue, Huangpu District, Shanghai",
        ),
        121.475164,
        31.228816,
    ),
    lm(
        "sh-the-bund",
        SHANGHAI,
        "310101",
        ("外滩", "The Bund"),
        (
            "上海市黄浦区中山东一路",
            "Zhongshan East 1st Road, Huangpu District, Shanghai",
        ),
        121.490317,
        31.240640,
    ),
    lm(
        "sh-nanjing-road",
        SHANGHAI,
        "310101",
        ("南京路步行街", "Nanjing Road Pedestrian Street"),
        (
            "上海市黄浦区南京东路",
            "East Nanjing Road, Huangpu District, Shanghai",
        ),
        121.480470,
        31.236530,
    ),
    lm(
        "sh-yu-garden",
        SHANGHAI,
        "310101",
        ("豫园", "Yu Garden"),
        (
            "上海市黄浦区安仁街218号",
            "218 Anren Street, Huangpu District, Shanghai",
        ),
        121.492294,
        31.227187,
    ),
    lm(
        "sh-xintiandi",
        SHANGHAI,
        "310101",
        ("新天地", "Xintiandi"),
        (
            "上海市黄浦区太仓路181弄",
            "Lane 181 Taicang Road, Huangpu District, Shanghai",
        ),
        121.474727,
        31.219612,
    ),
    lm(
        "sh-lujiazui",
        SHANGHAI,
        "310115",
        ("陆家嘴", "Lujiazui"),
        (
            "上海市浦东新区陆家嘴环路",
            "Lujiazui Ring Road, Pudong New Area, Shanghai",
        ),
        121.502357,
        31.238167,
    ),
    lm(
        "sh-oriental-pearl",
        SHANGHAI,
        "310115",
        ("东方明珠广播电视塔", "Oriental Pearl TV Tower"),
        (
            "上海市浦东新区世纪大道1号",
            "1 Century Avenue, Pudong New Area, Shanghai",
        ),
        121.499740,
        31.239853,
    ),
    lm(
        "sh-xujiahui",
        SHANGHAI,
        "310104",
        ("徐家汇", "Xujiahui"),
        (
            "上海市徐汇区漕溪北路",
            "Caoxi North Road, Xuhui District, Shanghai",
        ),
        121.437520,
        31.195080,
    ),
    lm(
        "sh-jingan-temple",
        SHANGHAI,
        "310106",
        ("静安寺", "Jing'an Temple"),
        (
            "上海市静安区南京西路1686号",
            "1686 West Nanjing Road, Jing'an District, Shanghai",
        ),
        121.445345,
        31.223556,
    ),
    lm(
        "sh-zhongshan-park",
        SHANGHAI,
        "310105",
        ("中山公园", "Zhongshan Park"),
        (
            "上海市长宁区长宁路780号",
            "780 Changning Road, Changning District, Shanghai",
        ),
        121.418025,
        31.221300,
    ),
    lm(
        "sh-wujiaochang",
        SHANGHAI,
        "310110",
        ("五角场", "Wujiaochang"),
        (
            "上海市杨浦区淞沪路",
            "Songhu Road, Yangpu District, Shanghai",
        ),
        121.514180,
        31.298850,
    ),
    lm(
        "sh-hongqiao-station",
        SHANGHAI,
        "310112",
        ("上海虹桥站", "Shanghai Hongqiao Railway Station"),
        (
            "上海市闵行区申贵路1500号",
            "1500 Shengui Road, Minhang District, Shanghai",
        ),
        121.320280,
        31.194120,
    ),
    // Beijing
    lm(
        "bj-tiananmen",
        BEIJING,
        "110101",
        ("天安门", "Tiananmen"),
        (
            "北京市东城区东长安街",
            "East Chang'an Avenue, Dongcheng District, Beijing",
        ),
        116.397455,
        39.909187,
    ),
    lm(
        "bj-palace-museum",
        BEIJING,
        "110101",
        ("故宫博物院", "The Palace Museum"),
        (
            "北京市东城区景山前街4号",
            "4 Jingshan Front Street, Dongcheng District, Beijing",
        ),
        116.397026,
        39.918058,
    ),
    lm(
        "bj-wangfujing",
        BEIJING,
        "110101",
        ("王府井", "Wangfujing"),
        (
            "北京市东城区王府井大街",
            "Wangfujing Street, Dongcheng District, Beijing",
        ),
        116.410886,
        39.913811,
    ),
    lm(
        "bj-xidan",
        BEIJING,
        "110102",
        ("西单", "Xidan"),
        (
            "北京市西城区西单北大街",
            "Xidan North Street, Xicheng District, Beijing",
        ),
        116.374247,
        39.910480,
    ),
    lm(
        "bj-sanlitun",
        BEIJING,
        "110105",
        ("三里屯", "Sanlitun"),
        (
            "北京市朝阳区三里屯路19号",
            "19 Sanlitun Road, Chaoyang District, Beijing",
        ),
        116.454925,
        39.937245,
    ),
    lm(
        "bj-guomao",
        BEIJING,
        "110105",
        ("国贸", "Guomao (China World)"),
        (
            "北京市朝阳区建国门外大街1号",
            "1 Jianguomenwai Avenue, Chaoyang District, Beijing",
        ),
        116.461012,
        39.909169,
    ),
    lm(
        "bj-birds-nest",
        BEIJING,
        "110105",
        ("国家体育场（鸟巢）", "National Stadium (Bird's Nest)"),
        (
            "北京市朝阳区国家体育场南路1号",
            "1 National Stadium South Road, Chaoyang District, Beijing",
        ),
        116.396584,
        39.992894,
    ),
    lm(
        "bj-zhongguancun",
        BEIJING,
        "110108",
        ("中关村", "Zhongguancun"),
        (
            "北京市海淀区中关村大街",
            "Zhongguancun Street, Haidian District, Beijing",
        ),
        116.316833,
        39.983916,
    ),
    lm(
        "bj-peking-university",
        BEIJING,
        "110108",
        ("北京大学", "Peking University"),
        (
            "北京市海淀区颐和园路5号",
            "5 Yiheyuan Road, Haidian District, Beijing",
        ),
        116.310918,
        39.992873,
    ),
    lm(
        "bj-summer-palace",
        BEIJING,
        "110108",
        ("颐和园", "Summer Palace"),
        (
            "北京市海淀区新建宫门路19号",
            "19 Xinjian Gongmen Road, Haidian District, Beijing",
        ),
        116.273300,
        39.999800,
    ),
    lm(
        "bj-south-station",
        BEIJING,
        "110106",
        ("北京南站", "Beijing South Railway Station"),
        (
            "北京市丰台区永外大街车站路12号",
            "12 Chezhan Road, Fengtai District, Beijing",
        ),
        116.378530,
        39.865042,
    ),
    // Shenzhen
    lm(
        "sz-shenzhen-bay-park",
        SHENZHEN,
        "440305",
        ("深圳湾公园", "Shenzhen Bay Park"),
        (
            "广东省深圳市南山区滨海大道",
            "Binhai Avenue, Nanshan District, Shenzhen",
        ),
        113.952590,
        22.505010,
    ),
    lm(
        "sz-futian-cbd",
        SHENZHEN,
        "440304",
        ("福田中心区", "Futian CBD"),
        (
            "广东省深圳市福田区福华路",
            "Fuhua Road, Futian District, Shenzhen",
        ),
        114.057930,
        22.536330,
    ),
    lm(
        "sz-civic-center",
        SHENZHEN,
        "440304",
        ("深圳市民中心", "Shenzhen Civic Center"),
        (
            "广东省深圳市福田区福中三路",
            "Fuzhong 3rd Road, Futian District, Shenzhen",
        ),
        114.059560,
        22.543510,
    ),
    lm(
        "sz-huaqiangbei",
        SHENZHEN,
        "440304",
        ("华强北", "Huaqiangbei"),
        (
            "广东省深圳市福田区华强北路",
            "Huaqiang North Road, Futian District, Shenzhen",
        ),
        114.085950,
        22.547180,
    ),
    lm(
        "sz-window-of-the-world",
        SHENZHEN,
        "440305",
        ("世界之窗", "Window of the World"),
        (
            "广东省深圳市南山区深南大道9037号",
            "9037 Shennan Avenue, Nanshan District, Shenzhen",
        ),
        113.973480,
        22.536480,
    ),
    lm(
        "sz-happy-valley",
        SHENZHEN,
        "440305",
        ("欢乐谷", "Happy Valley"),
        (
            "广东省深圳市南山区侨城西街18号",
            "18 Qiaocheng West Street, Nanshan District, Shenzhen",
        ),
        113.983540,
        22.540520,
    ),
    lm(
        "sz-shenzhen-university",
        SHENZHEN,
        "440305",
        ("深圳大学", "Shenzhen University"),
        (
            "广东省深圳市南山区南海大道3688号",
            "3688 Nanhai Avenue, Nanshan District, Shenzhen",
        ),
        113.936420,
        22.532870,
    ),
    lm(
        "sz-dongmen",
        SHENZHEN,
        "440303",
        ("东门步行街", "Dongmen Pedestrian Street"),
        (
            "广东省深圳市罗湖区东门中路",
            "Dongmen Middle Road, Luohu District, Shenzhen",
        ),
        114.119300,
        22.547500,
    ),
    lm(
        "sz-luohu-port",
        SHENZHEN,
        "440303",
        ("罗湖口岸", "Luohu Port"),
        (
            "广东省深圳市罗湖区人民南路",
            "Renmin South Road, Luohu District, Shenzhen",
        ),
        114.113260,
        22.532830,
    ),
    lm(
        "sz-north-station",
        SHENZHEN,
        "440309",
        ("深圳北站", "Shenzhen North Station"),
        (
            "广东省深圳市龙华区致远中路28号",
            "28 Zhiyuan Middle Road, Longhua District, Shenzhen",
        ),
        114.029290,
        22.609770,
    ),
    lm(
        "sz-baoan-airport",
        SHENZHEN,
        "440306",
        ("深圳宝安国际机场", "Shenzhen Bao'an International Airport"),
        (
            "广东省深圳市宝安区宝安机场",
            "Bao'an International Airport, Bao'an District, Shenzhen",
        ),
        113.811300,
        22.639260,
    ),
    // Guangzhou
    lm(
        "gz-canton-tower",
        GUANGZHOU,
        "440105",
        ("广州塔", "Canton Tower"),
        (
            "广东省广州市海珠区阅江西路222号",
            "222 Yuejiang West Road, Haizhu District, Guangzhou",
        ),
        113.324520,
        23.106460,
    ),
    lm(
        "gz-zhujiang-new-town",
        GUANGZHOU,
        "440106",
        ("珠江新城", "Zhujiang New Town"),
        (
            "广东省广州市天河区珠江东路",
            "Zhujiang East Road, Tianhe District, Guangzhou",
        ),
        113.321300,
        23.119800,
    ),
    lm(
        "gz-tianhe-sports-center",
        GUANGZHOU,
        "440106",
        ("天河体育中心", "Tianhe Sports Center"),
        (
            "广东省广州市天河区天河路299号",
            "299 Tianhe Road, Tianhe District, Guangzhou",
        ),
        113.324800,
        23.139500,
    ),
    lm(
        "gz-east-station",
        GUANGZHOU,
        "440106",
        ("广州东站", "Guangzhou East Railway Station"),
        (
            "广东省广州市天河区林和中路",
            "Linhe Middle Road, Tianhe District, Guangzhou",
        ),
        113.325000,
        23.150600,
    ),
    lm(
        "gz-beijing-road",
        GUANGZHOU,
        "440104",
        ("北京路步行街", "Beijing Road Pedestrian Street"),
        (
            "广东省广州市越秀区北京路",
            "Beijing Road, Yuexiu District, Guangzhou",
        ),
        113.269200,
        23.125800,
    ),
    lm(
        "gz-yuexiu-park",
        GUANGZHOU,
        "440104",
        ("越秀公园", "Yuexiu Park"),
        (
            "广东省广州市越秀区解放北路988号",
            "988 Jiefang North Road, Yuexiu District, Guangzhou",
        ),
        113.267300,
        23.139400,
    ),
    lm(
        "gz-shamian",
        GUANGZHOU,
        "440103",
        ("沙面", "Shamian Island"),
        (
            "广东省广州市荔湾区沙面大街",
            "Shamian Street, Liwan District, Guangzhou",
        ),
        113.243900,
        23.107600,
    ),
    lm(
        "gz-south-station",
        GUANGZHOU,
        "440113",
        ("广州南站", "Guangzhou South Railway Station"),
        (
            "广东省广州市番禺区石壁街道",
            "Shibi Subdistrict, Panyu District, Guangzhou",
        ),
        113.269000,
        22.988700,
    ),
    // Hangzhou
    lm(
        "hz-west-lake",
        HANGZHOU,
        "330106",
        ("西湖", "West Lake"),
        (
            "浙江省杭州市西湖区龙井路1号",
            "1 Longjing Road, Xihu District, Hangzhou",
        ),
        120.141400,
        30.242800,
    ),
    lm(
        "hz-leifeng-pagoda",
        HANGZHOU,
        "330106",
        ("雷峰塔", "Leifeng Pagoda"),
        (
            "浙江省杭州市西湖区南山路15号",
            "15 Nanshan Road, Xihu District, Hangzhou",
        ),
        120.148800,
        30.231300,
    ),
    lm(
        "hz-lingyin-temple",
        HANGZHOU,
        "330106",
        ("灵隐寺", "Lingyin Temple"),
        (
            "浙江省杭州市西湖区法云弄1号",
            "1 Fayun Lane, Xihu District, Hangzhou",
        ),
        120.101000,
        30.241200,
    ),
    lm(
        "hz-wulin-square",
        HANGZHOU,
        "330105",
        ("武林广场", "Wulin Square"),
        (
            "浙江省杭州市拱墅区武林广场",
            "Wulin Square, Gongshu District, Hangzhou",
        ),
        120.164200,
        30.276000,
    ),
    lm(
        "hz-hefang-street",
        HANGZHOU,
        "330102",
        ("河坊街", "Hefang Street"),
        (
            "浙江省杭州市上城区河坊街",
            "Hefang Street, Shangcheng District, Hangzhou",
        ),
        120.170500,
        30.242700,
    ),
    lm(
        "hz-qianjiang-new-city",
        HANGZHOU,
        "330102",
        ("钱江新城", "Qianjiang New City"),
        (
            "浙江省杭州市上城区富春路",
            "Fuchun Road, Shangcheng District, Hangzhou",
        ),
        120.211400,
        30.247300,
    ),
    lm(
        "hz-east-station",
        HANGZHOU,
        "330102",
        ("杭州东站", "Hangzhou East Railway Station"),
        (
            "浙江省杭州市上城区天城路1号",
            "1 Tiancheng Road, Shangcheng District, Hangzhou",
        ),
        120.212600,
        30.290800,
    ),
];

/// Names of the districts the landmarks lie in, for catalogues that do not list them:
/// (district code, cn, en).
pub const DISTRICT_NAMES: &[(&str, &str, &str)] = &[
    ("310101", "黄浦区", "Huangpu"),
    ("310104", "徐汇区", "Xuhui"),
    ("310105", "长宁区", "Changning"),
    ("310106", "静安区", "Jing'an"),
    ("310110", "杨浦区", "Yangpu"),
    ("310112", "闵行区", "Minhang"),
    ("310115", "浦东新区", "Pudong"),
    ("110101", "东城区", "Dongcheng"),
    ("110102", "西城区", "Xicheng"),
    ("110105", "朝阳区", "Chaoyang"),
    ("110106", "丰台区", "Fengtai"),
    ("110108", "海淀区", "Haidian"),
    ("440303", "罗湖区", "Luohu"),
    ("440304", "福田区", "Futian"),
    ("440305", "南山区", "Nanshan"),
    ("440306", "宝安区", "Bao'an"),
    ("440309", "龙华区", "Longhua"),
    ("440103", "荔湾区", "Liwan"),
    ("440104", "越秀区", "Yuexiu"),
    ("440105", "海珠区", "Haizhu"),
    ("440106", "天河区", "Tianhe"),
    ("440113", "番禺区", "Panyu"),
    ("330102", "上城区", "Shangcheng"),
    ("330105", "拱墅区", "Gongshu"),
    ("330106", "西湖区", "Xihu"),
];

/// Province-level divisions by the first two digits of an adcode: (prefix, cn, en).
pub const PROVINCES: &[(&str, &str, &str)] = &[
    ("11", "北京市", "Beijing"),
    ("12", "天津市", "Tianjin"),
    ("13", "河北省", "Hebei"),
    ("14", "山西省", "Shanxi"),
    ("15", "内蒙古自治区", "Inner Mongolia"),
    ("21", "辽宁省", "Liaoning"),
    ("22", "吉林省", "Jilin"),
    ("23", "黑龙江省", "Heilongjiang"),
    ("31", "上海市", "Shanghai"),
    ("32", "江苏省", "Jiangsu"),
    ("33", "浙江省", "Zhejiang"),
    ("34", "安徽省", "Anhui"),
    ("35", "福建省", "Fujian"),
    ("36", "江西省", "Jiangxi"),
    ("37", "山东省", "Shandong"),
    ("41", "河南省", "Henan"),
    ("42", "湖北省", "Hubei"),
    ("43", "湖南省", "Hunan"),
    ("44", "广东省", "Guangdong"),
    ("45", "广西壮族自治区", "Guangxi"),
    ("46", "海南省", "Hainan"),
    ("50", "重庆市", "Chongqing"),
    ("51", "四川省", "Sichuan"),
    ("52", "贵州省", "Guizhou"),
    ("53", "云南省", "Yunnan"),
    ("54", "西藏自治区", "Tibet"),
    ("61", "陕西省", "Shaanxi"),
    ("62", "甘肃省", "Gansu"),
    ("63", "青海省", "Qinghai"),
    ("64", "宁夏回族自治区", "Ningxia"),
    ("65", "新疆维吾尔自治区", "Xinjiang"),
    ("71", "台湾省", "Taiwan"),
    ("81", "香港特别行政区", "Hong Kong"),
    ("82", "澳门特别行政区", "Macao"),
];

/// The province of an adcode (any level): (cn, en).
pub fn province(adcode: &str) -> Option<(&'static str, &'static str)> {
    let prefix = adcode.get(..2)?;
    PROVINCES
        .iter()
        .find(|(p, _, _)| *p == prefix)
        .map(|(_, cn, en)| (*cn, *en))
}

/// The district name of an adcode from the built-in table: (cn, en).
pub fn district_name(code: &str) -> Option<(&'static str, &'static str)> {
    DISTRICT_NAMES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, cn, en)| (*cn, *en))
}

/// Municipalities (province-level cities): their province and city share a name.
pub fn is_municipality(adcode: &str) -> bool {
    matches!(adcode.get(..2), Some("11" | "12" | "31" | "50"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn landmarks_are_well_formed() {
        let mut ids = HashSet::new();
        for l in LANDMARKS {
            assert!(ids.insert(l.id), "duplicate id {}", l.id);
            assert!(!l.name_cn.is_empty() && !l.name_en.is_empty(), "{}", l.id);
            assert!(
                !l.address_cn.is_empty() && !l.address_en.is_empty(),
                "{}",
                l.id
            );
            assert_eq!(l.district_code.get(..4), l.city_code.get(..4), "{}", l.id);
            assert!(district_name(l.district_code).is_some(), "{}", l.id);
            // Within 60 km of the city: the lat/lng of each seeded city's centre.
            let (clng, clat) = match l.city_code {
                SHANGHAI => (121.4737, 31.2304),
                BEIJING => (116.4074, 39.9042),
                SHENZHEN => (114.0579, 22.5431),
                GUANGZHOU => (113.2644, 23.1291),
                HANGZHOU => (120.1551, 30.2741),
                other => panic!("unknown city {other}"),
            };
            assert!(
                (l.lng - clng).abs() < 0.6 && (l.lat - clat).abs() < 0.5,
                "{}",
                l.id
            );
        }
        for (city, least) in [
            (SHANGHAI, 10),
            (BEIJING, 10),
            (SHENZHEN, 10),
            (GUANGZHOU, 6),
            (HANGZHOU, 6),
        ] {
            let n = LANDMARKS.iter().filter(|l| l.city_code == city).count();
            assert!((least..=15).contains(&n), "{city} has {n} landmarks");
        }
    }

    #[test]
    fn provinces_by_prefix() {
        assert_eq!(province("310101"), Some(("上海市", "Shanghai")));
        assert_eq!(province("440300"), Some(("广东省", "Guangdong")));
        assert_eq!(province("99"), None);
        assert_eq!(province("1"), None);
        assert!(is_municipality("110100"));
        assert!(!is_municipality("440300"));
    }
}
